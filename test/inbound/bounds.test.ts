/** The bounds of src/smtp/bounds.ts on raw bytes: each one, where the bytes are cut, and real mail passing. */
import t from 'tap';
import { messageScanner, type Breach } from '../../src/smtp/bounds.js';
import type { MessageLimits } from '../../src/config.js';

const LIMITS: MessageLimits = {
  bytes: 1_000_000,
  headers: 20,
  headerBytes: 500,
  headerSectionBytes: 2_000,
  addressesPerHeader: 5,
  mimeDepth: 3,
  mimeParts: 6,
};

/** The first breach of a message fed in chunks of `size` bytes (1: every cut a line can have). */
function scan(message: string, size = 64 * 1024, limits: MessageLimits = LIMITS): Breach | null {
  const feed = messageScanner(limits);
  const raw = Buffer.from(message.replaceAll('\n', '\r\n'));
  let breach: Breach | null = null;
  for (let at = 0; at < raw.length && !breach; at += size) breach = feed(raw.subarray(at, at + size));
  return breach;
}

const head = (fields: string) => `${fields}Subject: x\n\n`;
const nested = (depth: number, leaf = 'Content-Type: text/plain\n\nfeuille\n'): string =>
  depth === 0
    ? leaf
    : `Content-Type: multipart/mixed; boundary="b${depth}"\n\n--b${depth}\n${nested(depth - 1, leaf)}--b${depth}--\n`;

t.test('real mail passes, whatever the chunks: folded fields, quoted commas, parts, an embedded message', async (t) => {
  const message =
    'From: "Dupont, Jean" <jean@x.test>\nTo: a@x.test,\n b@x.test, "C, D" <c@x.test>\nContent-Type: multipart/mixed;\n boundary="ext"\n\npréambule\n' +
    '--ext\nContent-Type: text/plain\n\n--pas une limite\nBonjour\n' +
    '--ext\nContent-Type: message/rfc822\n\nFrom: autre@x.test\nContent-Type: multipart/alternative; boundary=int\n\n--int\n\ntexte\n--int--\n' +
    '--ext--\népilogue\n';
  for (const size of [1, 7, 64 * 1024]) t.equal(scan(message, size), null, `chunks of ${size}`);
});

t.test('the whole size', async (t) => {
  t.same(scan(head('') + 'x'.repeat(200), 64, { ...LIMITS, bytes: 100 }), { limit: 'bytes', max: 100 });
});

t.test('header fields in one section', async (t) => {
  t.same(scan(head('X-A: 1\n'.repeat(20))), { limit: 'headers', max: 20 });
  const parts = Array.from({ length: 3 }, () => `--b\n${'X-P: 1\n'.repeat(15)}\nx\n`).join('');
  t.equal(
    scan(`Content-Type: multipart/mixed; boundary=b\n\n${parts}--b--\n`),
    null,
    'counted per section, not per message',
  );
});

t.test('one field, folded lines included, refused as it grows', async (t) => {
  t.same(scan(head(`X-Long: ${'y'.repeat(600)}\n`)), { limit: 'headerBytes', max: 500 });
  t.same(scan(head(`X-Folded: a\n${' yyyyyyyyyy\n'.repeat(60)}`)), { limit: 'headerBytes', max: 500 });
  const feed = messageScanner(LIMITS);
  t.equal(feed(Buffer.from(`X-Open: ${'y'.repeat(400)}`)), null);
  t.same(feed(Buffer.from('y'.repeat(200))), { limit: 'headerBytes', max: 500 }, 'a line not ended yet');
});

t.test('one header section', async (t) => {
  t.same(scan(head(`X-A: ${'y'.repeat(400)}\n`.repeat(6))), { limit: 'headerSectionBytes', max: 2_000 });
});

t.test('addresses in an address field; commas in quotes and in other fields do not count', async (t) => {
  t.same(scan(head(`From: ${Array.from({ length: 6 }, (_, i) => `a${i}@x.test`).join(', ')}\n`)), {
    limit: 'addressesPerHeader',
    max: 5,
  });
  t.same(
    scan(head(`Cc: a@x.test,\n b@x.test,\n c@x.test,\n d@x.test,\n e@x.test,\n f@x.test\n`), 3),
    { limit: 'addressesPerHeader', max: 5 },
    'folded',
  );
  t.equal(scan(head(`To: "a,b,c,d,e,f" <a@x.test>, "g\\",h" <g@x.test>\n`)), null);
  t.equal(scan(head(`Keywords: a, b, c, d, e, f, g\n`)), null);
});

t.test('MIME depth, multiparts and embedded messages alike', async (t) => {
  t.equal(scan(nested(3)), null);
  t.same(scan(nested(4)), { limit: 'mimeDepth', max: 3 });
  const embedded = (depth: number): string =>
    depth === 0 ? 'Subject: fin\n\nx\n' : `Content-Type: message/rfc822\n\n${embedded(depth - 1)}`;
  t.same(scan(embedded(4)), { limit: 'mimeDepth', max: 3 });
  t.equal(
    scan(`Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n${'QUJD\n'.repeat(50)}`),
    null,
    'an encoded message is a body',
  );
});

t.test('MIME parts in the whole message; a closed multipart does not count as depth', async (t) => {
  const parts = (n: number) => `Content-Type: multipart/mixed; boundary=b\n\n${'--b\n\nx\n'.repeat(n)}--b--\n`;
  t.equal(scan(parts(6)), null);
  t.same(scan(parts(7)), { limit: 'mimeParts', max: 6 });
  t.equal(scan(`Content-Type: multipart/mixed; boundary=o\n\n--o\n${nested(2)}--o\n${nested(1)}--o--\n`), null);
});

t.test('after a breach the scanner keeps answering it and reads nothing more', async (t) => {
  const feed = messageScanner(LIMITS);
  const breach = feed(Buffer.from(head('X-A: 1\n'.repeat(25))));
  t.same(breach, { limit: 'headers', max: 20 });
  t.equal(feed(Buffer.from('anything\r\n')), breach);
});
