/**
 * Hostile content, made on the spot: what an attacker sends to make a parser spend time or
 * memory. Shared by the tests and the content drill (bench/content-drill.mjs); plain JavaScript, so the
 * drill imports it without a build.
 */
import { constants, deflateRawSync } from 'node:zlib';

/** HTML nested `depth` elements deep around one word: `<div>` × depth, the word, `</div>` × depth (11 bytes a level). */
export function nestedHtml(depth, word = 'profond') {
  return `${'<div>'.repeat(depth)}${word}${'</div>'.repeat(depth)}`;
}

/** About `bytes` of nested HTML (2 MB: some 190,000 levels). */
export const nestedHtmlOf = (bytes) => nestedHtml(Math.floor(bytes / 11));

const SPACE = 0x20;
const PIECE = 16 * 1024 * 1024;

/**
 * A zlib stream (FlateDecode) of `head` then about `spaces` spaces, these about 1/1000 of their size, made
 * without holding them: one piece deflated once and repeated (each piece ends on a byte boundary and refers
 * to nothing before it), an empty final block, and the Adler-32, whose sums over equal bytes have a closed form.
 */
function deflated(head, spaces) {
  const pieces = Math.max(1, Math.round(spaces / PIECE));
  const flush = { level: 9, finishFlush: constants.Z_SYNC_FLUSH };
  const piece = deflateRawSync(Buffer.alloc(PIECE, SPACE), flush);
  let a = 1n;
  let b = 0n;
  for (const byte of head) {
    a = (a + BigInt(byte)) % 65521n;
    b = (b + a) % 65521n;
  }
  const n = BigInt(pieces) * BigInt(PIECE);
  const c = BigInt(SPACE);
  b = (b + n * a + (c * n * (n + 1n)) / 2n) % 65521n;
  a = (a + n * c) % 65521n;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  const body = Array.from({ length: pieces }, () => piece);
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    deflateRawSync(head, flush),
    ...body,
    deflateRawSync(Buffer.alloc(0)),
    adler,
  ]);
}

/**
 * A one-page PDF whose content stream inflates to about `inflatedBytes` (1 GB: a file of about 1 MB):
 * white space after one line of text, which a reader keeps decompressing to the end.
 */
export function inflatingPdf(inflatedBytes) {
  const stream = deflated(Buffer.from('BT /F1 12 Tf 72 720 Td (Facture piegee) Tj ET\n', 'latin1'), inflatedBytes);
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    ),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
      stream,
      Buffer.from('\nendstream'),
    ]),
  ];
  const parts = [Buffer.from('%PDF-1.4\n')];
  let size = parts[0].length;
  const offsets = objects.map((object, index) => {
    const offset = size;
    const part = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), object, Buffer.from('\nendobj\n')]);
    parts.push(part);
    size += part.length;
    return offset;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`));
  return Buffer.concat(parts);
}
