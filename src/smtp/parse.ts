/**
 * The DATA stream of a session, read once through the bounds of src/smtp/bounds.ts (nothing past a bound
 * is kept), then checked by mailauth (SPF, DKIM, DMARC, ARC) in this thread while its MIME is read in a
 * content worker (src/mail/extract.ts: mailparser, then the text version of an HTML-only message, each
 * within the limits on untrusted content). The raw bytes are returned up to `rawMax`: whole for mail to
 * an inbox (its source goes to the blob store, docs/contract.md, Decision 10), capped for a delivery report
 * (src/smtp/reports.ts), not at all otherwise.
 */
import type { Readable } from 'node:stream';
import { authenticate, type AuthenticateResult } from 'mailauth';
import type { ContentLimits, MessageLimits } from '../config.js';
import { messageScanner, type Breach } from './bounds.js';
import { readMail, type MailContent } from '../mail/extract.js';
import type { TextUnavailable } from '../record-schemas.js';
import type { Resolve } from './dns.js';
import type { InboundMail } from '../../actors/inbound.js';

export interface SessionFacts {
  /** The peer's IP address. */
  ip: string;
  /** What it said in EHLO/HELO. */
  helo: string;
  /** MAIL FROM ('' for a null sender, which reports use). */
  mailFrom: string;
  /** Our name, written in the Authentication-Results verdicts. */
  mta: string;
  resolver: Resolve;
}

export interface Parsed {
  mail: InboundMail;
  /** The raw bytes when asked for (delivery reports), else null. */
  raw: Buffer | null;
}

/** Reports are small: past this, a report's tail is not kept (its fields sit at its start). */
export const REPORT_RAW_MAX = 1024 * 1024;

/** The verdicts worth keeping: one word each, plus the DKIM signatures' domains. */
function authSummary(result: AuthenticateResult): Record<string, unknown> {
  return {
    spf: result.spf ? result.spf.status.result : 'none',
    dkim: result.dkim.results.length
      ? result.dkim.results.map((r) => ({
          domain: r.signingDomain,
          selector: r.selector ?? null,
          result: r.status.result,
        }))
      : [],
    dmarc: result.dmarc ? result.dmarc.status.result : 'none',
    arc: result.arc ? result.arc.status.result : 'none',
    header_from: result.dkim.headerFrom,
  };
}

const inboundOf = (content: MailContent, auth: AuthenticateResult): InboundMail => ({
  ...content,
  auth_results: authSummary(auth),
  source: null,
});

export interface Read {
  chunks: Buffer[];
  bytes: number;
  /** The bound the message passed: nothing more was kept. */
  breach: Breach | null;
}

/** Resolves when the stream has ended (its last byte read), rejects on its error. */
const endOf = (stream: Readable): Promise<void> =>
  new Promise((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('error', reject);
  });

/** Reads a stream to its end through `scan`, keeping its chunks until the first bound passed; the rest is read and dropped. */
export async function readWithin(stream: Readable, scan: (chunk: Buffer) => Breach | null): Promise<Read> {
  const read: Read = { chunks: [], bytes: 0, breach: null };
  const ended = endOf(stream);
  stream.on('data', (chunk: Buffer) => {
    if (read.breach || (read.breach = scan(chunk))) return;
    read.chunks.push(chunk);
    read.bytes += chunk.length;
  });
  await ended;
  if (read.breach) read.chunks = [];
  return read;
}

/**
 * Reads a DATA stream to its end: the message's content and authentication verdicts, and the raw bytes
 * up to `rawMax` (0: none); or the first bound of `limits` it passed (no parser saw any of it); or why
 * its MIME could not be read (`unreadable`: a property of the content, never of the moment).
 */
export async function parseStream(
  stream: Readable,
  facts: SessionFacts,
  options: { rawMax: number; limits: MessageLimits; content: ContentLimits },
): Promise<Parsed | { breach: Breach } | { unreadable: TextUnavailable }> {
  const read = await readWithin(stream, messageScanner(options.limits));
  if (read.breach) return { breach: read.breach };
  const raw = Buffer.concat(read.chunks, read.bytes);
  const [content, auth] = await Promise.all([
    readMail(raw, options.content, options.limits.mimeParts),
    authenticate(raw, {
      ip: facts.ip,
      helo: facts.helo,
      sender: facts.mailFrom,
      mta: facts.mta,
      resolver: facts.resolver,
      disableBimi: true,
    }),
  ]);
  if (!content.ok) return { unreadable: content.reason };
  return { mail: inboundOf(content.value, auth), raw: options.rawMax ? raw.subarray(0, options.rawMax) : null };
}
