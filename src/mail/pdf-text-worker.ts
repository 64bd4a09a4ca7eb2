/**
 * PDFs' text, read in a child process of its own (src/mail/sandbox.ts processRunner, started by
 * src/mail/extract.ts pdfText), one after another. A process and not a thread: pdfjs inflates a PDF's
 * streams into buffers outside the JS heap that a thread's heap limit does not count (a 1 MB file took
 * the service to 1.75 GB), and a process's address space can be bounded. And pdf-parse loads
 * pdfjs-dist's legacy build, whose core-js polyfills replace builtins of the realm that imports it
 * (Array.prototype.push, JSON.parse...): they stay here, out of the front end's own.
 */
import { PDFParse } from 'pdf-parse';
import { boundAddressSpace, READY, type Outcome, type Reply } from './sandbox.js';

/** What an allocation refused by the address-space limit throws, when pdfjs does not catch it itself. */
const OUT_OF_MEMORY = /allocation failed|out of memory|invalid (typed )?array length/i;

async function read(bytes: Uint8Array): Promise<Outcome<string>> {
  // pdfjs stops at a broken stream rather than reading on past it (a stream cut by the memory limit).
  const parser = new PDFParse({ data: bytes, stopAtErrors: true });
  try {
    return { ok: true, value: (await parser.getText()).text };
  } catch (error) {
    return { ok: false, reason: OUT_OF_MEMORY.test(String((error as Error)?.message)) ? 'memory_limit' : 'unreadable' };
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

/** A page without text, without a cross-reference table (pdfjs rebuilds it): loads what a first read loads. */
const WARM_UP =
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n' +
  '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 10 10]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n';

const warm = new PDFParse({ data: new TextEncoder().encode(WARM_UP) });
await warm.getText().catch(() => undefined);
await warm.destroy().catch(() => undefined);
boundAddressSpace(Number(process.argv[2]));

process.on('message', ({ id, bytes }: { id: number; bytes: Uint8Array }) => {
  void read(bytes).then((outcome) => process.send!({ id, ...outcome } satisfies Reply<string>));
});
process.send!(READY);
