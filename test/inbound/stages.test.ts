/** Each SMTP stage of src/smtp/stages.ts called alone: pure ones with plain values, the others on the test's Redis. */
import { Readable } from 'node:stream';
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import type { Route } from '../../src/smtp/routing.js';
import {
  connectLimits,
  dataTooSlow,
  MAX_RECIPIENTS,
  readMessage,
  recipientCount,
  refusalOf,
  routeRecipient,
  storeMessage,
  unknownRecipient,
  type DataContext,
  type RcptContext,
  type SessionState,
} from '../../src/smtp/stages.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';

const svc = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
const config = loadConfig({
  SMTP_MAX_UNKNOWN_RECIPIENTS: '3',
  SMTP_UNKNOWN_RECIPIENT_DELAY_MS: '1000',
  SMTP_MAX_CONNECTIONS: '10',
  SMTP_MAX_CONNECTIONS_PER_ADDRESS: '2',
});
const limits = config.smtpSession;

const state = (): SessionState => ({ address: '192.0.2.1', unknowns: 0, routes: new Map() });
const rcpt = (address: string, accepted = 0, session = state()): RcptContext => ({
  rt: svc.rt,
  address,
  accepted,
  state: session,
  limits,
});
const facts = {
  ip: '127.0.0.1',
  helo: 'client.test',
  mailFrom: 'paul@exp.test',
  mta: 'mx.test',
  resolver: async () => [] as string[][],
};
const data = (message: string, routes: Route[] = []): DataContext => ({
  rt: svc.rt,
  stream: Readable.from([Buffer.from(message.replaceAll('\n', '\r\n'))]),
  facts,
  routes,
  limits: config.smtpMessage,
  parsed: null,
});

t.test('connectLimits: within both limits it continues; at either one, 421 4.7.0', async (t) => {
  t.same(connectLimits({ total: 9, fromAddress: 1 }, limits), { kind: 'continue' });
  t.match(connectLimits({ total: 10, fromAddress: 0 }, limits), {
    kind: 'tempfail',
    code: 421,
    message: /^4\.7\.0 .*too many connections/,
  });
  t.match(connectLimits({ total: 3, fromAddress: 2 }, limits), {
    kind: 'tempfail',
    code: 421,
    message: /^4\.7\.0 .*from your address/,
  });
});

t.test('recipientCount: the recipient past MAX_RECIPIENTS gets 452', async (t) => {
  t.same(await recipientCount(rcpt('x@y.test', MAX_RECIPIENTS - 1)), { kind: 'continue' });
  t.match(await recipientCount(rcpt('x@y.test', MAX_RECIPIENTS)), { kind: 'tempfail', code: 452 });
});

t.test('unknownRecipient: 550 later each time, the last one closes with 421', async (t) => {
  t.same(
    unknownRecipient(1, limits),
    { kind: 'reject', code: 550, message: '5.1.1 Adresse inconnue ici / unknown address' },
    'a first typo is answered at once',
  );
  t.match(unknownRecipient(2, limits), { kind: 'reject', code: 550, delayMs: 1000 });
  t.match(unknownRecipient(3, limits), { kind: 'tempfail', code: 421, delayMs: 2000, message: /^4\.7\.0 / });
});

t.test('routeRecipient: a live inbox is accepted and its route kept; unknown addresses count', async (t) => {
  const s = await sender(svc);
  const session = state();
  t.same(await routeRecipient(rcpt(s.address, 0, session)), { kind: 'accept' });
  t.match(session.routes.get(s.address), { kind: 'inbox', inbox_id: s.inboxId, space_id: s.spaceId });
  t.match(await routeRecipient(rcpt(`personne@${s.domain}`, 0, session)), { kind: 'reject', code: 550 });
  t.match(await routeRecipient(rcpt(`nobody@${s.domain}`, 0, session)), { kind: 'reject', code: 550, delayMs: 1000 });
  t.equal(session.unknowns, 2);
  t.equal(session.routes.size, 1);
});

t.test('dataTooSlow: judged only after the grace time, on the average rate', async (t) => {
  const slow = { ...limits, dataGraceMs: 1000, dataMinBytesPerSecond: 100 };
  t.equal(dataTooSlow(1, 900, slow), false, 'within the grace time');
  t.equal(dataTooSlow(150, 2000, slow), true);
  t.equal(dataTooSlow(250, 2000, slow), false);
});

t.test('refusalOf: too big is 552 5.3.4, a bad shape 554 5.6.0, both in French and English', async (t) => {
  t.same(refusalOf({ limit: 'bytes', max: 10 }), {
    kind: 'reject',
    code: 552,
    message: '5.3.4 Message trop volumineux (au plus 10 octets) / message too big',
  });
  t.match(refusalOf({ limit: 'headerBytes', max: 10 }), { code: 552, message: /^5\.3\.4 / });
  t.match(refusalOf({ limit: 'addressesPerHeader', max: 1000 }), {
    code: 554,
    message: /^5\.6\.0 .*\(au plus 1000\) \/ too many addresses/,
  });
  t.match(refusalOf({ limit: 'mimeParts', max: 5 }), { code: 554, message: /^5\.6\.0 / });
});

t.test('readMessage: a message within its bounds is parsed; one past them refused before parsing', async (t) => {
  const ok = data('From: Paul <paul@exp.test>\nSubject: Bonjour\n\nTexte.\n');
  t.same(await readMessage(ok), { kind: 'continue' });
  t.match(ok.parsed!.mail, { from: 'paul@exp.test', subject: 'Bonjour' });
  const many = data(`From: ${Array.from({ length: 1001 }, (_, i) => `a${i}@x.test`).join(',')}\nSubject: x\n\nx\n`);
  t.match(await readMessage(many), { kind: 'reject', code: 554 });
  t.equal(many.parsed, null);
});

t.test('storeMessage: each route gets the message; all routes erased is 550', async (t) => {
  const s = await sender(svc);
  const ctx = data(`From: ${recipient()}\nSubject: Seul\n\nTexte.\n`, [
    { kind: 'inbox', address: s.address, space_id: s.spaceId, inbox_id: s.inboxId },
  ]);
  await readMessage(ctx);
  t.same(await storeMessage(ctx), { kind: 'accept' });
  t.equal((await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId })).body.items.length, 1);
  t.equal((await svc.call(s.apiKey, 'delete_inbox', { inbox_id: s.inboxId, confirm: true })).status, 200);
  t.match(await storeMessage(ctx), { kind: 'reject', code: 550, message: /^5\.1\.1 / });
});
