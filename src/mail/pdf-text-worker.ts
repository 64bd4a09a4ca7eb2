/**
 * PDFs' text, read in a worker thread of its own (pdfText in src/mail/attachment-text.ts). pdf-parse
 * loads pdfjs-dist's legacy build, whose core-js polyfills replace builtins of the realm that imports it
 * (Array.prototype.push, JSON.parse, Function.prototype.toString, Iterator, Set methods...): in the
 * front end's own thread, every `push` of every request ran about 7 times slower (BENCHMARKS.md,
 * "Node's own work a send"). Here they stay in this thread, which reads one PDF after another.
 */
import { parentPort } from 'node:worker_threads';
import { PDFParse } from 'pdf-parse';

parentPort!.on('message', async ({ id, bytes }: { id: number; bytes: Uint8Array }) => {
  const parser = new PDFParse({ data: bytes });
  let text: string | null = null;
  try {
    text = (await parser.getText()).text;
  } catch {
    // Unreadable: no text.
  } finally {
    await parser.destroy();
  }
  parentPort!.postMessage({ id, text });
});
