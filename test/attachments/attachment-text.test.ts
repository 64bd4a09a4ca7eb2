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

t.test('a PDF over the time limit gets no text, its thread is ended, and the next PDF starts another', async (t) => {
  const limit = PDF_TEXT_LIMITS.ms;
  PDF_TEXT_LIMITS.ms = 0;
  t.teardown(() => void (PDF_TEXT_LIMITS.ms = limit));
  t.equal(await attachmentText('application/pdf', pdf), null);
  PDF_TEXT_LIMITS.ms = limit;
  t.match(await attachmentText('application/pdf', pdf), /La facture 4521/);
});
