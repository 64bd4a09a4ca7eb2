/**
 * A PDF's text is read in a child process (src/mail/pdf-text-worker.ts): pdfjs-dist's legacy build
 * replaces builtins of the realm that loads it, and the front end's own must stay native; its inflated
 * streams stay out of this process and within the child's bounded address space. The text is the same;
 * a file that is no PDF gets none (`unreadable`); a PDF over the limits none either (`time_limit`,
 * `memory_limit`), and the next is read.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { inflatingPdf } from '../helpers/hostile.mjs';

// Taken before any module of the service loads: the identities a polyfill would replace.
const builtins = {
  push: Array.prototype.push,
  parse: JSON.parse,
  toString: Function.prototype.toString,
  union: (Set.prototype as { union?: unknown }).union,
};
const { attachmentText: read } = await import('../../src/mail/attachment-text.js');
await import('../../src/tools/dispatch.js');
const pdf = readFileSync(new URL('../fixtures/facture.pdf', import.meta.url));
const limits = loadConfig({}).content;
/** The text alone, as get_attachment answers `text`. */
const attachmentText = async (type: string, bytes: Buffer, within = limits) => (await read(type, bytes, within)).text;

t.test("a PDF's text, read without replacing a builtin of this thread", async (t) => {
  t.match(await attachmentText('application/pdf', pdf), /La facture 4521 est due le 3 mars\./);
  t.equal(Array.prototype.push, builtins.push, 'Array.prototype.push');
  t.equal(JSON.parse, builtins.parse, 'JSON.parse');
  t.equal(Function.prototype.toString, builtins.toString, 'Function.prototype.toString');
  t.equal((Set.prototype as { union?: unknown }).union, builtins.union, 'Set.prototype.union');
});

t.test('bytes that are no PDF give no text (unreadable); the next PDF is read', async (t) => {
  t.same(await read('application/pdf', Buffer.from('%PDF-1.4 rien de lisible'), limits), {
    text: null,
    unavailable: 'unreadable',
  });
  t.same(await read('application/pdf', Buffer.alloc(0), limits), { text: null, unavailable: 'unreadable' });
  const [first, second] = await Promise.all([
    attachmentText('application/pdf', pdf),
    attachmentText('application/pdf', pdf),
  ]);
  t.equal(first, second, 'two at once, each its answer');
  t.match(first, /La facture 4521/);
});

/** A PDF of `pages` pages of 40 lines of text: some 300 ms to read here at 30 pages. */
function longPdf(pages: number): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: string[] = [];
  for (let page = 0; page < pages; page++) {
    const lines = Array.from(
      { length: 40 },
      (_, line) => `BT /F1 10 Tf 40 ${800 - line * 18} Td (Ligne ${line} de la page ${page}.) Tj ET`,
    ).join('\n');
    objects.push(`<< /Length ${lines.length} >>\nstream\n${lines}\nendstream`);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length} 0 R >>`,
    );
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
  return Buffer.from(
    `${body}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    'latin1',
  );
}

t.test(
  'a PDF over the time limit gets no text (time_limit), its process is ended, and the next PDF starts another',
  async (t) => {
    const long = longPdf(30);
    t.match(await attachmentText('application/pdf', long), /Ligne 39 de la page 29\./, 'read whole within the limit');
    // A millisecond against a read of some 300 ms: the process is ended before it answers.
    const hurried = { ...limits, pdfTimeMs: 1 };
    t.same(await read('application/pdf', long, hurried), { text: null, unavailable: 'time_limit' });
    t.match(await attachmentText('application/pdf', pdf), /La facture 4521/);
  },
);

t.test(
  'a 1 MB PDF that inflates to 1 GB gets no text (memory_limit), and this process does not hold its streams',
  async (t) => {
    const bomb = inflatingPdf(1024 * 1024 * 1024);
    t.ok(bomb.length < 1.1 * 1024 * 1024, `${bomb.length} bytes`);
    // No time limit to meet first on a busy machine: the memory limit is what ends it.
    t.same(await read('application/pdf', bomb, { ...limits, pdfTimeMs: 600_000 }), {
      text: null,
      unavailable: 'memory_limit',
    });
    // Read in this process (a thread), its streams took it to 1.8 GB; in the child they stay under PDF_MEMORY_MB.
    const peakMb = process.resourceUsage().maxRSS / 1024;
    t.ok(peakMb < 512, `this process peaked at ${peakMb.toFixed(0)} MB`);
    t.match(await attachmentText('application/pdf', pdf), /La facture 4521/, 'the next PDF is read');
  },
);

t.test(
  'HTML nested past HTML_MAX_DEPTH gets no text (depth_limit); other HTML is read, whatever the spelling of its type',
  async (t) => {
    t.same(await read('text/html', Buffer.from(`${'<div>'.repeat(600)}profond${'</div>'.repeat(600)}`), limits), {
      text: null,
      unavailable: 'depth_limit',
    });
    t.same(await read('TEXT/HTML ; charset=UTF-8', Buffer.from('<p>Bonjour <b>Paul</b></p>'), limits), {
      text: 'Bonjour Paul',
      unavailable: null,
    });
    t.same(await read('text/x-html', Buffer.from('<p>Bonjour</p><script>x()</script>'), limits), {
      text: 'Bonjour',
      unavailable: null,
    });
    t.same(
      await read('text/plain, text/html', Buffer.from('<p>Bonjour</p>'), limits),
      { text: null, unavailable: null },
      'not one media type: no text type',
    );
  },
);
