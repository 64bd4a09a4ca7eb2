/**
 * The SMTP relay transport against a peer smtp-server on loopback: real SMTP with AUTH, the VERP
 * envelope, a DKIM signature made with a verified domain's own key that mailauth verifies against the
 * test DNS server, both unsubscribe headers present and covered by `h=`, threading headers; a refused
 * password waits for the operator instead of failing the message.
 */
import t from 'tap';
import { simpleParser } from 'mailparser';
import { dkimKeyFor } from '../../src/delivery/dkim.js';
import { createTransport } from '../../src/delivery/transports.js';
import { MASTER_KEY, verifiedDomain } from '../helpers/domains.js';
import { header, outgoing, signedHeaders, verifyDkim, withConfig } from '../helpers/mail.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { startPeer } from '../helpers/smtp-peer.js';

const clock = mondayMorning();
const svc = await startService({
  clock,
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, HELO_NAME: 'relay-client.mailbox.test' },
});
const peer = await startPeer({ auth: { user: 'relais', pass: 'mot:de passe' }, starttls: false });
const relayUrl = (pass: string) => `smtp://relais:${encodeURIComponent(pass)}@127.0.0.1:${peer.port}`;
const relay = createTransport(withConfig(svc.rt, { outbound: { kind: 'smtp', url: relayUrl('mot:de passe') } }));
t.teardown(() => relay.close());

const { apiKey, spaceId } = await svc.space();
const { domain } = await verifiedDomain(svc, apiKey);
const dkim = await dkimKeyFor(svc.rt, spaceId, domain);

t.test('a verified domain signs with its first selector, opened from its sealed form', async (t) => {
  t.equal(dkim?.domainName, domain);
  t.equal(dkim?.keySelector, 'mbx1');
  t.equal(dkim?.privateKey.type, 'private', 'parsed once, ready to sign');
  t.equal(dkim?.privateKey.asymmetricKeyType, 'rsa');
  t.equal(
    await dkimKeyFor(svc.rt, spaceId, 'agents.mailbox.localhost'),
    null,
    'no key for a domain the space does not own',
  );
});

t.test('relayed: envelope, DKIM pass, unsubscribe headers signed, threading', async (t) => {
  const mail = outgoing(
    svc.rt,
    { spaceId, domain },
    {
      dkim,
      replyTo: `reponses@${domain}`,
      inReplyTo: `<msg_earlier@${domain}>`,
      references: [`<msg_first@${domain}>`, `<msg_earlier@${domain}>`],
    },
  );
  const result = await relay.send(mail);
  t.match(result, { ok: true, response: /^250 / });

  const got = await peer.next();
  t.equal(got.from, `bounces+${spaceId}.${mail.id}@${domain}`, 'MAIL FROM is the VERP return path');
  t.same(got.to, ['marie@destinataire.test']);
  t.equal(got.user, 'relais', 'authenticated with the URL credentials, the password decoded');
  t.equal(got.helo, 'relay-client.mailbox.test', 'EHLO with HELO_NAME');

  const [signature, ...others] = await verifyDkim(svc.dns, got.raw);
  t.equal(others.length, 0, 'one signature');
  t.equal(signature?.status.result, 'pass', signature?.info ?? 'no signature');
  t.equal(signature?.signingDomain, domain);
  t.equal(signature?.selector, 'mbx1');
  const covered = signedHeaders(got.raw);
  for (const name of [
    'list-unsubscribe',
    'list-unsubscribe-post',
    'from',
    'to',
    'subject',
    'date',
    'message-id',
    'reply-to',
    'in-reply-to',
    'references',
  ]) {
    t.ok(covered.includes(name), `h= covers ${name}`);
  }

  t.equal(header(got.raw, 'list-unsubscribe'), `<${mail.unsubscribe!.url}>, <mailto:${mail.unsubscribe!.mailto}>`);
  t.equal(header(got.raw, 'list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
  t.match(mail.unsubscribe!.url, new RegExp(`^${svc.url}/u/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{22}$`));
  t.match(mail.unsubscribe!.mailto, /^unsubscribe\+[0-9a-z]{50}@agents\.mailbox\.localhost$/);
  t.equal(header(got.raw, 'x-mailbox-message-id'), mail.id);

  const parsed = await simpleParser(got.raw);
  t.equal(parsed.messageId, mail.messageIdHeader);
  t.equal(parsed.inReplyTo, `<msg_earlier@${domain}>`);
  t.same(parsed.references, [`<msg_first@${domain}>`, `<msg_earlier@${domain}>`]);
  t.equal(parsed.subject, 'Proposition de rendez-vous');
  t.equal(parsed.date?.toISOString(), new Date(clock.now()).toISOString(), 'Date from the injected clock');
  t.same(parsed.from?.value, [{ address: `ventes@${domain}`, name: 'Équipe Ventes' }]);
  t.same(parsed.replyTo?.value, [{ address: `reponses@${domain}`, name: '' }]);
  t.same((Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)?.value, [
    { address: 'marie@destinataire.test', name: 'Marie Curie' },
  ]);

  // The signature is what makes the headers trustworthy: a relay that swaps the link breaks it.
  const forged = Buffer.from(got.raw.toString('utf8').replace(mail.unsubscribe!.url, 'https://ailleurs.test/u/x'));
  t.not((await verifyDkim(svc.dns, forged))[0]?.status.result, 'pass', 'a changed List-Unsubscribe fails DKIM');
  const noPost = Buffer.from(
    got.raw.toString('utf8').replace('List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n', ''),
  );
  t.not((await verifyDkim(svc.dns, noPost))[0]?.status.result, 'pass', 'a removed List-Unsubscribe-Post fails DKIM');
});

t.test('the pool carries several messages', async (t) => {
  const mails = [1, 2, 3].map((n) =>
    outgoing(svc.rt, { spaceId, domain, to: `contact${n}@destinataire.test` }, { dkim }),
  );
  const results = await Promise.all(mails.map((mail) => relay.send(mail)));
  t.ok(results.every((r) => r.ok));
  const got = await Promise.all(mails.map(() => peer.next()));
  t.same(got.map((m) => m.to[0]).sort(), [
    'contact1@destinataire.test',
    'contact2@destinataire.test',
    'contact3@destinataire.test',
  ]);
});

t.test('a refused password is temporary: the operator fixes OUTBOUND, the message waits', async (t) => {
  const wrong = createTransport(withConfig(svc.rt, { outbound: { kind: 'smtp', url: relayUrl('faux') } }));
  t.teardown(() => wrong.close());
  const result = await wrong.send(outgoing(svc.rt, { spaceId, domain }));
  t.match(result, { ok: false, permanent: false, code: 'relay_auth_failed', response: /535/ });
  t.notMatch(result.response, 'faux', 'the password is not in the answer');
});

t.test('a relay that is down is temporary', async (t) => {
  const down = createTransport(withConfig(svc.rt, { outbound: { kind: 'smtp', url: 'smtp://127.0.0.1:1' } }));
  t.teardown(() => down.close());
  t.match(await down.send(outgoing(svc.rt, { spaceId, domain })), {
    ok: false,
    permanent: false,
    code: 'connection_failed',
  });
});
