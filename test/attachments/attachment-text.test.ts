/**
 * A PDF's text is read in a worker thread (src/mail/pdf-text-worker.ts): pdfjs-dist's legacy build
 * replaces builtins of the realm that loads it, and the front end's own must stay native. The text is
 * the same; a file that is no PDF gets none; a PDF over the limits none either, and the next is read.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';

// Taken before any module of the service loads: the identities a polyfill would replace.
const builtins = { push: Array.prototype.push, parse: JSON.parse, toString: Function.prototype.toString, union: (Set.prototype as { union?: unknown }).union };
const { attachmentText, PDF_TEXT_LIMITS } = await import('../../src/mail/attachment-text.js');
await import('../../src/tools/dispatch.js');
const pdf = readFileSync(new URL('../fixtures/facture.pdf', import.meta.url));

t.test("a PDF's text, read without replacing a builtin of this thread", async (t) => {
  t.match(await attachmentText('application/pdf', pdf), /La facture 4521 est due le 3 mars\./);
  t.equal(Array.prototype.push, builtins.push, 'Array.prototype.push');
  t.equal(JSON.parse, builtins.parse, 'JSON.parse');
  t.equal(Function.prototype.toString, builtins.toString, 'Function.prototype.toString');
  t.equal((Set.prototype as { union?: unknown }).union, builtins.union, 'Set.prototype.union');
});

t.test('bytes that are no PDF give no text; the next PDF is read', async (t) => {
  t.equal(await attachmentText('application/pdf', Buffer.from('%PDF-1.4 rien de lisible')), null);
  t.equal(await attachmentText('application/pdf', Buffer.alloc(0)), null);
  const [first, second] = await Promise.all([attachmentText('application/pdf', pdf), attachmentText('application/pdf', pdf)]);
  t.equal(first, second, 'two at once, each its answer');
  t.match(first, /La facture 4521/);
});

/** A PDF of `pages` pages of 40 lines of text: some 300 ms to read here at 30 pages. */
function longPdf(pages: number): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: string[] = [];
  for (let page = 0; page < pages; page++) {
    const lines = Array.from({ length: 40 }, (_, line) => `BT /F1 10 Tf 40 ${800 - line * 18} Td (Ligne ${line} de la page ${page}.) Tj ET`).join('\n');
    objects.push(`<< /Length ${lines.length} >>\nstream\n${lines}\nendstream`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length} 0 R >>`);
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  return Buffer.from(`${body}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1');
}

t.test('a PDF over the time limit gets no text, its thread is ended, and the next PDF starts another', async (t) => {
  const limit = PDF_TEXT_LIMITS.ms;
  const long = longPdf(30);
  t.match(await attachmentText('application/pdf', long), /Ligne 39 de la page 29\./, 'read whole within the limit');
  // A millisecond against a read of some 300 ms: the thread is ended before it answers.
  PDF_TEXT_LIMITS.ms = 1;
  t.teardown(() => void (PDF_TEXT_LIMITS.ms = limit));
  t.equal(await attachmentText('application/pdf', long), null);
  PDF_TEXT_LIMITS.ms = limit;
  t.match(await attachmentText('application/pdf', pdf), /La facture 4521/);
});
