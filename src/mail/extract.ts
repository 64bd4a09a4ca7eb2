/**
 * What the service reads out of untrusted content, each read in a sandbox (src/mail/sandbox.ts) within
 * the limits of `ContentLimits` (docs/operations.md, "Limits on untrusted content"): a received
 * message's MIME and the text version of its HTML (content worker threads), an HTML document's text,
 * a PDF's text (a child process: pdfjs inflates streams outside the JS heap, a 1 MB file to 1 GB).
 * Each answers its value or why there is none; nothing here throws for a property of the content.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContentLimits } from '../config.js';
import type { TextUnavailable } from '../record-schemas.js';
import { processRunner, SandboxPool, threadRunner, type Outcome, type RunnerFactory } from './sandbox.js';

/** A received message as its MIME reads, before the authentication verdicts. */
export interface MimeContent {
  /** The From address as parsed, lowercase: '' or anything a header held. */
  from: string;
  from_name: string;
  reply_to: string;
  /** Every address of its To and Cc headers (SMTP submission reads who a message is for from them). */
  to_list: { address: string; name: string | null }[];
  cc: { address: string; name: string | null }[];
  subject: string;
  /** The text parts ('' for an HTML-only message: its text is read apart, `htmlText`). */
  text: string;
  html: string;
  message_id_header: string;
  in_reply_to: string;
  references: string[];
  automatic: boolean;
  attachments: {
    filename: string | null;
    content_type: string;
    content: Buffer;
    inline: boolean;
    content_id: string | null;
  }[];
}

/** A received message's content: its text is the text version of its HTML when it has no text part, unless that could not be had. */
export type MailContent = MimeContent & { text_unavailable: TextUnavailable | null };

export interface MimeJob {
  kind: 'mime';
  raw: Uint8Array;
  maxChildNodes: number;
}

export interface HtmlJob {
  kind: 'html';
  html: string;
  maxDepth: number;
  wordwrap: number | false;
}

// The runners' modules next to this one, .ts under the tests' loader and .js in the build.
const sibling = (name: string) => new URL(`./${name}${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

const pools = new Map<string, SandboxPool>();
/** One pool per kind and set of limits (a test may run services of several settings in one process). */
function pool(name: string, settings: unknown[], make: () => SandboxPool): SandboxPool {
  const key = JSON.stringify([name, ...settings]);
  let found = pools.get(key);
  if (!found) pools.set(key, (found = make()));
  return found;
}

const contentPool = (limits: ContentLimits) =>
  pool(
    'content',
    [limits.workers, limits.timeMs, limits.heapMb],
    () => new SandboxPool(threadRunner(sibling('content-worker'), limits.heapMb), limits.workers, limits.timeMs),
  );

const pdfRunner = (limits: ContentLimits): RunnerFactory =>
  processRunner(sibling('pdf-text-worker'), { heapMb: limits.pdfHeapMb, memoryMb: limits.pdfMemoryMb });
const pdfPool = (limits: ContentLimits) =>
  pool(
    'pdf',
    [limits.pdfTimeMs, limits.pdfHeapMb, limits.pdfMemoryMb],
    () => new SandboxPool(pdfRunner(limits), 1, limits.pdfTimeMs),
  );

/** An HTML document's text; `wordwrap` as html-to-text takes it (80 columns for a mail's text, false for a file's). */
export const htmlText = (html: string, limits: ContentLimits, wordwrap: number | false): Promise<Outcome<string>> =>
  contentPool(limits).run<string>({ kind: 'html', html, maxDepth: limits.htmlDepth, wordwrap } satisfies HtmlJob);

/** A PDF's text ('' when it has none); `unreadable` for bytes that are no PDF. */
export const pdfText = (bytes: Buffer, limits: ContentLimits): Promise<Outcome<string>> =>
  pdfPool(limits).run<string>({ bytes: new Uint8Array(bytes) });

/**
 * A received message's content. `maxParts`: the MIME parts src/smtp/bounds.ts let through; the
 * parser's own cap is set past it, so the bound that answers is ours (its 554 names it).
 */
export async function readMail(raw: Buffer, limits: ContentLimits, maxParts: number): Promise<Outcome<MailContent>> {
  const read = await contentPool(limits).run<MimeContent>({
    kind: 'mime',
    raw,
    maxChildNodes: 2 * maxParts + 2,
  } satisfies MimeJob);
  if (!read.ok) return read;
  const mime = read.value;
  // Buffers come back from the thread as plain Uint8Arrays.
  const attachments = mime.attachments.map((a) => ({
    ...a,
    content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
  }));
  if (mime.text.trim() || !mime.html) return { ok: true, value: { ...mime, attachments, text_unavailable: null } };
  const text = await htmlText(mime.html, limits, 80);
  return {
    ok: true,
    value: { ...mime, attachments, text: text.ok ? text.value : '', text_unavailable: text.ok ? null : text.reason },
  };
}
