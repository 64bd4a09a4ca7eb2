/**
 * Direct delivery: the recipient domain's MX looked up on the test DNS server, the peer smtp-server on
 * loopback as that MX (DIRECT_PORT = its port), opportunistic STARTTLS, the implicit MX, backup MX
 * hosts; and how every failure is classified: 550 5.1.1 permanent recipient_unknown, 451 temporary,
 * full mailbox, a closed port, a silent server, no MX, a null MX, a failing resolver.
 */
import { createServer, type Socket } from 'node:net';
import t from 'tap';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { classifySmtpError, DELIVERY_CODES } from '../../src/mail/delivery-codes.js';
import { createTransport } from '../../src/delivery/transports.js';
import { loadDkimKey } from '../../src/delivery/mime.js';
import { header, outgoing, verifyDkim, withConfig } from '../helpers/mail.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { startPeer } from '../helpers/smtp-peer.js';

const svc = await startService({
  clock: mondayMorning(),
  env: { MAILBOX_MASTER_KEY: randomBytes(32).toString('base64') },
});
const peer = await startPeer({
  rcpt: (address) => {
    if (address.startsWith('inconnu@'))
      return { code: 550, message: '5.1.1 <inconnu>: Recipient address rejected: User unknown' };
    if (address.startsWith('plus-tard@')) return { code: 451, message: '4.7.1 Greylisted, try again later' };
    if (address.startsWith('plein@')) return { code: 552, message: '5.2.2 Mailbox full' };
    if (address.startsWith('spam@')) return { code: 554, message: '5.7.1 Message rejected as spam' };
    return null;
  },
});
const rt = withConfig(svc.rt, { outbound: { kind: 'direct' }, directPort: peer.port, heloName: 'out.mailbox.test' });
const direct = createTransport(rt);
const spaceId = (await svc.space()).spaceId;

/** The sending domain's DKIM key, published on the test DNS server as add_domain would ask. */
const sender = `envoi-${randomBytes(4).toString('hex')}.test`;
const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'der' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
svc.dns.txt(`mbx1._domainkey.${sender}`, `v=DKIM1; k=rsa; p=${keys.publicKey.toString('base64')}`);
const dkim = loadDkimKey(sender, 'mbx1', keys.privateKey);

/** A recipient domain whose MX is the peer. */
function mxDomain(label = 'dest'): string {
  const domain = `${label}-${randomBytes(4).toString('hex')}.test`;
  svc.dns.mx(domain, `mx.${domain}`, 10);
  svc.dns.a(`mx.${domain}`, '127.0.0.1');
  return domain;
}

const send = (to: string, transport = direct) =>
  transport.send(outgoing(rt, { spaceId, domain: sender, to }, { dkim }));

t.test('delivered to the MX over STARTTLS, EHLO with HELO_NAME, DKIM pass', async (t) => {
  const domain = mxDomain();
  const result = await send(`marie@${domain}`);
  t.match(result, { ok: true, response: /^250 / });
  const got = await peer.next();
  t.same(got.to, [`marie@${domain}`]);
  t.match(got.from, new RegExp(`^bounces\\+${spaceId}\\.msg_[0-9a-z]{20}@${sender}$`));
  t.equal(got.secure, true, 'upgraded with STARTTLS although the certificate is not for this name');
  t.equal(got.helo, 'out.mailbox.test');
  const [signature] = await verifyDkim(svc.dns, got.raw);
  t.equal(signature?.status.result, 'pass', signature?.info ?? 'no signature');
  t.ok(header(got.raw, 'list-unsubscribe-post'));
});

t.test('no MX: the domain itself (its A record) is the mail server', async (t) => {
  const domain = `sans-mx-${randomBytes(4).toString('hex')}.test`;
  svc.dns.a(domain, '127.0.0.1');
  t.match(await send(`paul@${domain}`), { ok: true });
  t.same((await peer.next()).to, [`paul@${domain}`]);
});

t.test('an MX host that refuses: the next preference takes it', async (t) => {
  const domain = `secours-${randomBytes(4).toString('hex')}.test`;
  // Linux answers all of 127/8 on loopback; the peer listens on 127.0.0.1 only, so 127.0.0.2 refuses.
  svc.dns.mx(domain, `mx1.${domain}`, 10);
  svc.dns.a(`mx1.${domain}`, '127.0.0.2');
  svc.dns.mx(domain, `mx2.${domain}`, 20);
  svc.dns.a(`mx2.${domain}`, '127.0.0.1');
  t.match(await send(`lea@${domain}`), { ok: true });
  t.same((await peer.next()).to, [`lea@${domain}`]);
});

t.test('refusals by the MX: permanent with a stable code, or temporary', async (t) => {
  const domain = mxDomain();
  t.match(await send(`inconnu@${domain}`), {
    ok: false,
    permanent: true,
    code: 'recipient_unknown',
    response: /^550 5\.1\.1 /,
  });
  t.match(await send(`plus-tard@${domain}`), {
    ok: false,
    permanent: false,
    code: 'smtp_4xx',
    response: /^451 4\.7\.1 /,
  });
  t.match(await send(`plein@${domain}`), { ok: false, permanent: true, code: 'mailbox_full' });
  t.match(await send(`spam@${domain}`), { ok: false, permanent: true, code: 'policy_rejected' });
  t.equal(peer.received.filter((m) => m.to.some((to) => to.endsWith(domain))).length, 0, 'nothing was accepted');
});

t.test('network failures are temporary', async (t) => {
  const domain = mxDomain();
  const closed = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const refused = createTransport(withConfig(rt, { directPort: closed }));
  t.match(await send(`marie@${domain}`, refused), { ok: false, permanent: false, code: 'connection_failed' });

  // A server that accepts the connection and never greets.
  const sockets: Socket[] = [];
  const silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    sockets.forEach((s) => s.destroy());
    silent.close();
  });
  const slow = createTransport(withConfig(rt, { directPort: (silent.address() as { port: number }).port }), {
    timeouts: { greetingMs: 300 },
  });
  t.match(await send(`marie@${domain}`, slow), { ok: false, permanent: false, code: 'timeout' });
});

t.test('no mail server at all: permanent no_mx', async (t) => {
  const nowhere = `nulle-part-${randomBytes(4).toString('hex')}.test`;
  t.match(await send(`marie@${nowhere}`), { ok: false, permanent: true, code: 'no_mx' }, 'no MX, no address');
  const nullMx = `refus-${randomBytes(4).toString('hex')}.test`;
  svc.dns.mx(nullMx, '.', 0);
  svc.dns.a(nullMx, '127.0.0.1');
  t.match(
    await send(`marie@${nullMx}`),
    { ok: false, permanent: true, code: 'no_mx', response: /null MX/ },
    'RFC 7505 null MX, even with an A record',
  );
  const dangling = `pendant-${randomBytes(4).toString('hex')}.test`;
  svc.dns.mx(dangling, `mx.absent-${randomBytes(4).toString('hex')}.test`, 10);
  t.match(await send(`marie@${dangling}`), { ok: false, permanent: true, code: 'no_mx' }, 'an MX host without address');
});

t.test('a failing resolver is temporary dns_failed', async (t) => {
  const domain = mxDomain();
  svc.dns.servfail = true;
  t.teardown(() => void (svc.dns.servfail = false));
  t.match(await send(`marie@${domain}`), { ok: false, permanent: false, code: 'dns_failed' });
});

t.test('classification of replies without a peer to provoke them', async (t) => {
  const cases: [object, string][] = [
    [
      { code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO', response: '550 No such user here' },
      'recipient_unknown',
    ],
    [
      { code: 'EENVELOPE', responseCode: 550, command: 'MAIL FROM', response: '550 5.1.8 Bad sender address' },
      'smtp_5xx',
    ],
    [
      { code: 'EMESSAGE', responseCode: 552, command: 'DATA', response: '552 5.3.4 Message size exceeds fixed limit' },
      'message_too_large',
    ],
    [
      {
        code: 'EMESSAGE',
        responseCode: 552,
        command: 'DATA',
        response: '552 Requested mail action aborted: exceeded storage allocation',
      },
      'message_too_large',
    ],
    [{ code: 'EMESSAGE', responseCode: 554, command: 'DATA', response: '554 Transaction failed' }, 'smtp_5xx'],
    [{ code: 'EMESSAGE', message: 'Message size larger than allowed 1000' }, 'message_too_large'],
    [{ code: 'EENVELOPE', message: 'Invalid recipient "a b"' }, 'invalid_address'],
    [{ code: 'ETIMEDOUT', message: 'Greeting never received' }, 'timeout'],
    [{ code: 'EDNS', message: 'getaddrinfo ENOTFOUND relay' }, 'dns_failed'],
    [{ code: 'ETLS', message: 'Error initiating TLS' }, 'connection_failed'],
    [{ code: 'EPROTOCOL', responseCode: 421, command: 'CONN', response: '421 Too many connections' }, 'smtp_4xx'],
  ];
  for (const [error, code] of cases) t.equal(classifySmtpError(error).code, code, JSON.stringify(error));
  t.same(
    Object.entries(DELIVERY_CODES)
      .filter(([, c]) => c.permanent)
      .map(([name]) => name),
    [
      'recipient_unknown',
      'mailbox_full',
      'message_too_large',
      'policy_rejected',
      'smtp_5xx',
      'no_mx',
      'invalid_address',
      'recipient_suppressed',
    ],
  );
});
