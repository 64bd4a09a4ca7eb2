/**
 * The text an agent can read from an attachment (decisions.md 10): text parts as they are, HTML through
 * html-to-text (what mailparser uses for HTML-only mail), PDF through pdf-parse in a worker thread (why:
 * src/mail/pdf-text-worker.ts); null for anything else or a file these cannot read. A rule of the mail
 * layer: bytes in, text out, no I/O.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { convert } from 'html-to-text';

/** More text than an agent reads in one answer is cut here. */
export const ATTACHMENT_TEXT_MAX_CHARS = 200_000;

/** A PDF that takes longer to read, or more memory, gets no text: its thread is ended (and started again for the next). */
export const PDF_TEXT_LIMITS = { ms: 20_000, heapMb: 256 };

// The worker next to this module, .ts under the tests' loader and .js in the build.
const PDF_WORKER = new URL(`./pdf-text-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** The thread reading PDFs, started at the first and kept (loading pdfjs costs about 100 ms), and the reads it owes. */
interface PdfReader {
  worker: Worker;
  waiting: Map<number, (text: string | null) => void>;
  /** Set aside: what it owes gets no text, and the next PDF starts another thread. */
  end: () => void;
}
let reader: PdfReader | null = null;
let nextRead = 0;

function pdfReader(): PdfReader {
  if (reader) return reader;
  const worker = new Worker(PDF_WORKER, { resourceLimits: { maxOldGenerationSizeMb: PDF_TEXT_LIMITS.heapMb } });
  const current: PdfReader = {
    worker,
    waiting: new Map(),
    end: () => {
      if (reader === current) reader = null;
      for (const done of current.waiting.values()) done(null);
      current.waiting.clear();
    },
  };
  worker.on('message', ({ id, text }: { id: number; text: string | null }) => {
    current.waiting.get(id)?.(text);
    current.waiting.delete(id);
  });
  // Ended by a crash or by its heap limit.
  worker.once('error', current.end);
  worker.once('exit', current.end);
  // An idle reader keeps no process alive (a read in progress has its timer); after the listeners,
  // which would take the reference again.
  worker.unref();
  return (reader = current);
}

function pdfText(bytes: Buffer): Promise<string | null> {
  const current = pdfReader();
  const id = nextRead++;
  return new Promise((resolve) => {
    // Past the limit the thread is set aside at once (no later PDF is given to it while it ends, and a
    // late answer is dropped), then terminated.
    const timer = setTimeout(() => {
      current.end();
      void current.worker.terminate();
    }, PDF_TEXT_LIMITS.ms);
    current.waiting.set(id, (text) => {
      clearTimeout(timer);
      resolve(text);
    });
    current.worker.postMessage({ id, bytes: new Uint8Array(bytes) });
  });
}

const bareType = (contentType: string): string => contentType.toLowerCase().split(';')[0]!.trim();

/** Whether `attachmentText` reads anything from this type: the others need not be read at all. */
export const hasText = (contentType: string): boolean => {
  const type = bareType(contentType);
  return type.startsWith('text/') || type === 'application/pdf';
};

export async function attachmentText(contentType: string, bytes: Buffer): Promise<string | null> {
  if (!hasText(contentType)) return null;
  const type = bareType(contentType);
  const text =
    type === 'text/html' ? convert(bytes.toString('utf8'), { wordwrap: false }) :
    type.startsWith('text/') ? bytes.toString('utf8') :
    await pdfText(bytes);
  return text === null ? null : text.trim().slice(0, ATTACHMENT_TEXT_MAX_CHARS);
}
