/** Reading DATA: small and large mail through the bounds, the parser and the checks; the size limit on both. */
import { Readable } from 'node:stream';
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { parseStream, type Parsed, type SessionFacts } from '../../src/smtp/parse.js';

const limits = (bytes: number) => ({ ...loadConfig({}).smtpMessage, bytes });
const content = loadConfig({}).content;

const facts: SessionFacts = {
  ip: '127.0.0.1',
  helo: 'client.test',
  mailFrom: 'paul@exp.test',
  mta: 'mx.test',
  resolver: async () => {
    throw Object.assign(new Error('queryTxt ENOTFOUND'), { code: 'ENOTFOUND' });
  },
};

/** A message of about `size` bytes, its body in lines, delivered in 16 KB chunks as a socket would. */
function message(size: number): { stream: Readable; raw: Buffer } {
  const head =
    'From: Paul <paul@exp.test>\r\nTo: agent@mx.test\r\nSubject: Gros\r\nMessage-ID: <gros@exp.test>\r\n\r\n';
  const raw = Buffer.from(head + `${'x'.repeat(98)}\r\n`.repeat(Math.ceil(size / 100)));
  const chunks: Buffer[] = [];
  for (let at = 0; at < raw.length; at += 16 * 1024) chunks.push(raw.subarray(at, at + 16 * 1024));
  return { stream: Readable.from(chunks), raw };
}

for (const size of [2_000, 600_000]) {
  t.test(`a message of ${size} bytes is parsed and checked, its raw bytes kept when asked`, async (t) => {
    const { stream, raw } = message(size);
    const parsed = (await parseStream(stream, facts, {
      rawMax: Infinity,
      limits: limits(1024 * 1024),
      content,
    })) as Parsed;
    t.ok(parsed.mail);
    t.match(parsed.mail, {
      from: 'paul@exp.test',
      from_name: 'Paul',
      subject: 'Gros',
      message_id_header: '<gros@exp.test>',
      automatic: false,
    });
    t.equal(parsed.mail.text.split('\n').filter(Boolean).length, Math.ceil(size / 100), 'every line of the body');
    t.match(parsed.mail.auth_results, { spf: 'none', dmarc: 'none' });
    t.same(parsed.raw, raw);
  });
}

for (const [size, maxBytes] of [
  [2_000, 1_000],
  [600_000, 300_000],
  [600_000, 100_000],
] as const) {
  t.test(`a message of ${size} bytes over a ${maxBytes}-byte limit is read to its end and refused`, async (t) => {
    const { stream } = message(size);
    t.same(await parseStream(stream, facts, { rawMax: 0, limits: limits(maxBytes), content }), {
      breach: { limit: 'bytes', max: maxBytes },
    });
    t.equal(stream.readableEnded, true);
  });
}
