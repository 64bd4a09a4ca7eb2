/** Real SMTP into the service: routing at RCPT, size, authentication results, threading, auto-replies. */
import { generateKeyPairSync } from 'node:crypto';
import t from 'tap';
import { globalKeys, spaceKeys } from '../../src/redis/keys.js';
import { readMessage, readThread } from '../../actors/stored-records.js';
import { iso } from '../../src/clock.js';
import { idTime } from '../../src/ids.js';
import { rawSession, startInbound } from '../helpers/inbound.js';
import { recipient, send, sender } from '../helpers/outbound.js';
import { MASTER_KEY, verifiedDomain } from '../helpers/domains.js';
import { startService } from '../helpers/service.js';

const svc = await startService({
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', SMTP_MAX_BYTES: String(64 * 1024) },
});
const inbound = await startInbound(svc);

/** The thread hash as its readers see it (the fields it leaves out filled in). */
async function threadOf(spaceId: string, threadId: string) {
  return (await readThread(svc.rt, spaceId, threadId))!;
}
/** A message's Message-ID header as its readers see it (a sent message's hash leaves it out). */
const messageIdHeader = async (spaceId: string, messageId: string) =>
  (await readMessage(svc.rt, spaceId, messageId))!.message_id_header;

t.test(
  'a reply to an outgoing message lands in its thread, sets correspondent_wrote and emits mail.thread.replied',
  async (t) => {
    const s = await sender(svc);
    const to = recipient();
    const sent = await send(svc, s, { to, subject: 'Proposition', metadata: { crm: 42 } });
    t.equal(sent.status, 200);
    const { message, thread } = sent.body;
    const header = await messageIdHeader(s.spaceId, message.id);
    t.match(
      await svc.rt.redis.hget(spaceKeys(s.spaceId).thread(thread.id), 'loop_window'),
      new RegExp(`^\\d+ ${message.id}$`),
      'the send is in the loop guard window',
    );
    await inbound.send({
      from: { name: 'Marie Client', address: to },
      to: s.address,
      subject: 'Re: Proposition',
      inReplyTo: header,
      references: [header],
      text: 'Oui, jeudi me va.\n\nLe lun. 23 nov. 2026 à 09:00, Équipe ventes <ventes@x.test> a écrit :\n> Bonjour,\n> une proposition.\n',
    });
    const read = await svc.call(s.apiKey, 'get_thread', { thread_id: thread.id });
    t.equal(read.status, 200, JSON.stringify(read.body));
    t.equal(read.body.messages.length, 2);
    const reply = read.body.messages[1];
    t.match(reply, {
      direction: 'inbound',
      status: 'received',
      from: to,
      auto_reply: false,
      reply_text: 'Oui, jeudi me va.',
    });
    t.ok(reply.received_at);
    const stored = await threadOf(s.spaceId, thread.id);
    t.equal(stored.correspondent_wrote, '1');
    t.equal(stored.last_direction, 'inbound');
    t.equal(
      await svc.rt.redis.hget(spaceKeys(s.spaceId).thread(thread.id), 'last_direction'),
      null,
      'inbound, its default, left out of the hash',
    );
    t.equal(read.body.thread.unread, true);
    t.equal(await svc.rt.redis.hget(spaceKeys(s.spaceId).thread(thread.id), 'loop_window'), null, 'loop guard cleared');
    const feed = await svc.call(s.apiKey, 'event_feed', {});
    const replied = feed.body.events.find((e: { type: string }) => e.type === 'mail.thread.replied');
    t.match(replied.data, {
      thread_id: thread.id,
      text: /jeudi/,
      metadata: { crm: 42 },
      answered: { message_id: message.id },
    });
  },
);

t.test(
  'mail from someone new opens a thread (mail.message.received); a second mail with the same subject joins it',
  async (t) => {
    const s = await sender(svc);
    const from = recipient('inconnu');
    await inbound.send({ from, to: s.address, subject: 'Question sur vos tarifs', text: 'Bonjour, combien ?' });
    await inbound.send({ from, to: s.address, subject: 'RE: Question sur vos tarifs', text: 'Pardon, je précise.' });
    await inbound.send({
      from: recipient('autre'),
      to: s.address,
      subject: 'Question sur vos tarifs',
      text: 'Moi aussi.',
    });
    const list = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
    t.equal(list.status, 200);
    t.equal(list.body.items.length, 2, 'same subject from another correspondent is another thread');
    const mine = list.body.items.find((th: { contact: string }) => th.contact === from);
    t.equal(mine.message_count, 2);
    const feed = await svc.call(s.apiKey, 'event_feed', {});
    t.equal(feed.body.events.filter((e: { type: string }) => e.type === 'mail.message.received').length, 2);
  },
);

t.test(
  'a reply citing nothing joins by subject and answers the latest outbound message; one to an inbound-only thread answers none',
  async (t) => {
    const s = await sender(svc);
    const to = recipient('sans-entete');
    const sent = await send(svc, s, { to, subject: 'Devis', metadata: { devis: 7 } });
    await inbound.send({ from: to, to: s.address, subject: 'RE: Devis', text: 'Merci, je regarde.' });
    await inbound.send({ from: to, to: s.address, subject: 'Re: Devis', text: 'Et encore une question.' });
    const stranger = recipient('nouveau');
    await inbound.send({ from: stranger, to: s.address, subject: 'Bonjour', text: 'Premier message.' });
    await inbound.send({ from: stranger, to: s.address, subject: 'Re: Bonjour', text: 'Second message.' });
    const feed = await svc.call(s.apiKey, 'event_feed', {});
    const replies = feed.body.events
      .filter((e: { type: string }) => e.type === 'mail.thread.replied')
      .map((e: { data: unknown }) => e.data);
    t.equal(replies.length, 3);
    t.match(replies[0], {
      thread_id: sent.body.thread.id,
      answered: { message_id: sent.body.message.id },
      metadata: { devis: 7 },
    });
    t.match(
      replies[1],
      { thread_id: sent.body.thread.id, answered: { message_id: sent.body.message.id } },
      'an inbound message in between does not hide it',
    );
    t.match(replies[2], { from: stranger, answered: null, metadata: null });
  },
);

t.test('an unknown recipient is refused at RCPT with 550', async (t) => {
  const s = await sender(svc);
  const error = await inbound
    .send({ from: recipient(), to: `personne@${s.domain}`, subject: 'x', text: 'x' })
    .catch((e) => e);
  t.equal(error.responseCode, 550);
  t.match(error.response, /5\.1\.1/);
  const forged = await inbound
    .send({
      from: recipient(),
      to: `bounces+spc_00000000000000000000.msg_00000000000000000000@${s.domain}`,
      subject: 'x',
      text: 'x',
    })
    .catch((e) => e);
  t.equal(forged.responseCode, 550, 'a VERP address of no message is unknown too');
});

t.test(
  'a delete_inbox that stopped before its claim: the first mail finishes it (550 after DATA), the next is refused at RCPT',
  async (t) => {
    const s = await sender(svc);
    const claimKey = globalKeys.address(s.address);
    const claim = await svc.rt.redis.get(claimKey);
    t.equal((await svc.call(s.apiKey, 'delete_inbox', { inbox_id: s.inboxId, confirm: true })).status, 200);
    await svc.rt.redis.set(claimKey, claim!); // as if the process died between the inbox's script and its claim
    const first = await inbound
      .send({ from: recipient(), to: s.address, subject: 'Encore là ?', text: 'x' })
      .catch((e) => e);
    t.equal(first.responseCode, 550, 'accepted at RCPT, refused after DATA: the inbox is gone');
    t.equal(await svc.rt.redis.get(claimKey), null, 'the own-domain address is released');
    const refused = await inbound
      .send({ from: recipient(), to: s.address, subject: 'Et maintenant ?', text: 'x' })
      .catch((e) => e);
    t.equal(refused.responseCode, 550);
    t.equal((await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId })).body.items.length, 0, 'nothing stored');
  },
);

t.test(
  'an inbox deleted between RCPT and DATA: refused after DATA, nothing stored; another recipient still gets it',
  async (t) => {
    const s = await sender(svc);
    const other = await svc.call(s.apiKey, 'create_inbox', {
      username: 'autre',
      domain: s.domain,
      display_name: 'Autre',
    });
    t.equal(other.status, 200, JSON.stringify(other.body));
    /** MAIL and RCPT for each recipient, then the inbox deleted, then DATA: the reply after the message. */
    const message = async (recipients: string[], deleted: string) => {
      const { say } = await rawSession(inbound.port);
      t.match(await say('EHLO client.test'), /^250 /);
      t.match(await say(`MAIL FROM:<${recipient()}>`), /^250 /);
      for (const to of recipients) t.match(await say(`RCPT TO:<${to}>`), /^250 /);
      t.equal((await svc.call(s.apiKey, 'delete_inbox', { inbox_id: deleted, confirm: true })).status, 200);
      t.match(await say('DATA'), /^354 /);
      return say(`From: <x@client.test>\r\nSubject: Entre-temps\r\n\r\nBonjour.\r\n.`);
    };
    t.match(await message([s.address], s.inboxId), /^550 5\.1\.1 /, 'its only recipient is gone: the sender learns it');
    const third = await svc.call(s.apiKey, 'create_inbox', {
      username: 'troisieme',
      domain: s.domain,
      display_name: 'Troisième',
    });
    t.match(
      await message([third.body.address, other.body.address], third.body.id),
      /^250 /,
      'one recipient left: taken for it',
    );
    for (const [inbox, count] of [
      [s.inboxId, 0],
      [third.body.id, 0],
      [other.body.id, 1],
    ] as const) {
      t.equal(
        (await svc.call(s.apiKey, 'list_threads', { inbox_id: inbox })).body.items.length,
        count,
        `${count} thread(s) in ${inbox}`,
      );
    }
  },
);

t.test('recipients of an abandoned transaction (RSET, EHLO) get nothing of the next one', async (t) => {
  const [first, second] = [await sender(svc), await sender(svc)];
  const { say } = await rawSession(inbound.port);
  t.match(await say('EHLO client.test'), /^250 /);
  for (const abandon of ['RSET', 'EHLO client.test']) {
    t.match(await say(`MAIL FROM:<${recipient()}>`), /^250 /);
    t.match(await say(`RCPT TO:<${first.address}>`), /^250 /, 'an inbox of another space, then abandoned');
    t.match(await say(abandon), /^250 /);
    t.match(await say(`MAIL FROM:<${recipient()}>`), /^250 /);
    t.match(await say(`RCPT TO:<${second.address}>`), /^250 /);
    t.match(await say('DATA'), /^354 /);
    t.match(await say(`From: <x@client.test>\r\nSubject: Après ${abandon}\r\n\r\nBonjour.\r\n.`), /^250 /);
  }
  t.equal(
    (await svc.call(first.apiKey, 'list_threads', { inbox_id: first.inboxId })).body.items.length,
    0,
    'the abandoned recipient got nothing',
  );
  t.equal((await svc.call(second.apiKey, 'list_threads', { inbox_id: second.inboxId })).body.items.length, 2);
});

t.test(
  'an inbox on an internationalised domain receives mail addressed in Unicode (SMTPUTF8) or punycode',
  async (t) => {
    const { apiKey } = await svc.space({ plan: 'pro' });
    const unicode = `café-${Date.now().toString(36)}.test`;
    const { domain } = await verifiedDomain(svc, apiKey, unicode);
    t.match(domain, /^xn--/, 'stored in punycode');
    const box = await svc.call(apiKey, 'create_inbox', { username: 'accueil', domain, display_name: 'Accueil' });
    t.equal(box.status, 200, JSON.stringify(box.body));
    const { say } = await rawSession(inbound.port);
    t.match(await say('EHLO client.test'), /^250 /);
    for (const to of [`accueil@${unicode}`, `Accueil@${domain}`]) {
      t.match(await say(`MAIL FROM:<${recipient()}> SMTPUTF8`), /^250 /);
      t.match(await say(`RCPT TO:<${to}>`), /^250 /, to);
      t.match(await say('DATA'), /^354 /);
      t.match(await say(`From: <x@client.test>\r\nSubject: Pour ${to}\r\n\r\nBonjour.\r\n.`), /^250 /);
    }
    t.equal((await svc.call(apiKey, 'list_threads', { inbox_id: box.body.id })).body.items.length, 2);
  },
);

t.test("a reply citing a received Message-ID of our shape (another space's message) joins its thread", async (t) => {
  const s = await sender(svc);
  const foreign = `<${svc.rt.ids.next('message')}@ailleurs.test>`;
  await inbound.send({
    from: recipient('premier'),
    to: s.address,
    subject: 'Projet commun',
    text: 'Bonjour',
    messageId: foreign,
  });
  await inbound.send({
    from: recipient('tiers'),
    to: s.address,
    subject: 'Autre objet',
    text: 'Je complète.',
    inReplyTo: foreign,
    references: [foreign],
  });
  const threads = (await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId })).body.items;
  t.equal(threads.length, 1, 'one thread');
  t.equal(threads[0].message_count, 2);
});

t.test('an oversized message is refused with 552 and nothing is stored', async (t) => {
  const s = await sender(svc);
  const error = await inbound
    .send({ from: recipient(), to: s.address, subject: 'Gros', text: 'x'.repeat(100 * 1024) })
    .catch((e) => e);
  t.ok(error.responseCode === 552 || error.code === 'EMESSAGE', `refused: ${error.response ?? error.message}`);
  const list = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  t.equal(list.body.items.length, 0);
});

t.test('a forged DKIM signature is recorded as failing', async (t) => {
  const s = await sender(svc);
  const published = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const forger = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const der = published.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  svc.dns.txt('sel._domainkey.expediteur.test', `v=DKIM1; k=rsa; p=${der}`);
  await inbound.send({
    from: 'paul@expediteur.test',
    to: s.address,
    subject: 'Signé',
    text: 'Bonjour',
    dkim: {
      domainName: 'expediteur.test',
      keySelector: 'sel',
      privateKey: forger.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
  });
  const list = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  const thread = await svc.call(s.apiKey, 'get_thread', { thread_id: list.body.items[0].id });
  const message = await svc.call(s.apiKey, 'get_message', { message_id: thread.body.messages[0].id });
  t.equal(message.status, 200);
  t.match(message.body.headers.authentication, { dkim: [{ domain: 'expediteur.test', result: 'fail' }] });
  // Kept by position (actors/stored-records.ts storedAuthResults), read back the same by get_message and the events.
  const stored = await svc.rt.redis.hmget(spaceKeys(s.spaceId).message(message.body.id), 'auth_results', 'received_at');
  t.match(stored[0], /^\["[a-z]+","[a-z]+","[a-z]+",\[\["expediteur\.test","sel","fail"\]\]/, 'verdicts by position');
  // The reception is read from the clock just before the id is drawn: left out when it is the id's time (nearly
  // always). When the clock moved in between, created_at is stored too, with the same value: compare with the id.
  const idTimeIso = iso(idTime(message.body.id));
  t.not(stored[1], idTimeIso, 'the reception is never stored when it is the id’s time');
  t.equal(message.body.received_at, stored[1] ?? idTimeIso);
  const feed = await svc.call(s.apiKey, 'event_feed', {});
  const received = feed.body.events.find((e: { type: string }) => e.type === 'mail.message.received');
  t.same(
    [received.data.authentication, received.data.received_at],
    [message.body.headers.authentication, message.body.received_at],
  );
  // Answering nothing, its stored entry has no data (actors/events.ts); the envelope has it at null, in its place.
  t.same(Object.entries(received.data).slice(0, 5), [
    ['message_id', message.body.id],
    ['thread_id', thread.body.thread.id],
    ['inbox_id', s.inboxId],
    ['answered', null],
    ['metadata', null],
  ]);
  const [last] = await svc.rt.redis.xrevrange(spaceKeys(s.spaceId).events, '+', '-', 'COUNT', 1);
  t.match(last![1], ['p', /\n\n$/], 'the packed entry ends with an empty subject and no data');
});

t.test("SPF is checked against the sender's record on the test's DNS server", async (t) => {
  const s = await sender(svc);
  svc.dns.txt('spf-pass.test', 'v=spf1 ip4:127.0.0.1 -all');
  await inbound.send({ from: 'lea@spf-pass.test', to: s.address, subject: 'SPF', text: 'Bonjour' });
  const list = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  const thread = await svc.call(s.apiKey, 'get_thread', { thread_id: list.body.items[0].id });
  const message = await svc.call(s.apiKey, 'get_message', { message_id: thread.body.messages[0].id });
  t.match(message.body.headers.authentication, { spf: 'pass' });
});

t.test('an out-of-office is marked auto_reply and does not set correspondent_wrote', async (t) => {
  const s = await sender(svc);
  const to = recipient();
  const sent = await send(svc, s, { to, subject: 'Rendez-vous' });
  const header = await messageIdHeader(s.spaceId, sent.body.message.id);
  await inbound.send({
    from: to,
    to: s.address,
    subject: 'Réponse automatique : absent du bureau',
    inReplyTo: header,
    headers: { 'Auto-Submitted': 'auto-replied' },
    text: "Je suis absent jusqu'au 30 novembre.",
  });
  const read = await svc.call(s.apiKey, 'get_thread', { thread_id: sent.body.thread.id });
  t.equal(read.body.messages[1].auto_reply, true);
  t.equal((await threadOf(s.spaceId, sent.body.thread.id)).correspondent_wrote, '0');
  const reply = await svc.call(s.apiKey, 'reply_to_thread', {
    thread_id: sent.body.thread.id,
    text: 'Relance',
    dry_run: true,
  });
  t.equal(reply.status, 200, 'an own-domain inbox may still follow up');
});

t.test('a common-domain inbox answers only after the correspondent wrote', async (t) => {
  const { apiKey } = await svc.space({ plan: 'pro' });
  const created = await svc.call(apiKey, 'create_inbox', {
    username: `agent-${Date.now().toString(36)}`,
    display_name: 'Agent',
  });
  t.equal(created.status, 200);
  const from = recipient('prospect');
  await inbound.send({ from, to: created.body.address, subject: 'Bonjour agent', text: 'Pouvez-vous me répondre ?' });
  const list = await svc.call(apiKey, 'list_threads', { inbox_id: created.body.id });
  const reply = await svc.call(apiKey, 'reply_to_thread', { thread_id: list.body.items[0].id, text: 'Avec plaisir.' });
  t.equal(reply.status, 200, JSON.stringify(reply.body));
  const first = await svc.call(apiKey, 'send_email', {
    inbox_id: created.body.id,
    to: recipient(),
    subject: 'Salut',
    text: 'Bonjour',
  });
  t.equal(first.body.error.code, 'own_domain_required');
});

t.test(
  'a reply by subject to a thread opened by a test send joins it; the test send still counts for no 30-day rule',
  async (t) => {
    const human = recipient('humain');
    const s = await sender(svc, { human });
    const sent = await send(svc, s, { to: human, subject: 'Essai de présentation', test: true });
    t.equal(sent.status, 200, JSON.stringify(sent.body));
    // The human's client answers without In-Reply-To nor References: only the subject ties it.
    await inbound.send({ from: human, to: s.address, subject: 'RE: Essai de présentation', text: 'Reçu, très clair.' });
    const list = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
    t.equal(list.body.items.length, 1, 'no new thread');
    t.match(list.body.items[0], { id: sent.body.thread.id, message_count: 2, contact: human });
    t.equal(
      (await send(svc, s, { to: human, subject: 'Pour de vrai' })).status,
      200,
      'a real first message to the human right after',
    );
  },
);

t.test('HTML-only mail gets a text version', async (t) => {
  const s = await sender(svc);
  await inbound.send({ from: recipient(), to: s.address, subject: 'HTML', html: '<p>Bonjour <b>à vous</b></p>' });
  const list = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  const read = await svc.call(s.apiKey, 'get_thread', { thread_id: list.body.items[0].id });
  t.match(read.body.messages[0], { has_html: true, text: /Bonjour à vous/i });
});
