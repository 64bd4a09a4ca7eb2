/**
 * Recipients as mail APIs take them (docs/tools.md, "Recipients"): `to` as "Name <address>", `cc` and
 * `bcc` over HTTP and MCP, shown in reads, events and the journal; one SMTP transaction to every
 * recipient through a relay peer (Cc header, no bcc anywhere in the bytes, DKIM passing with Cc
 * signed), one per domain in direct delivery; reply_all to the other people of the message answered;
 * drafts corrected with copies. Refusals live in refusals.test.ts.
 */
import t from 'tap';
import { simpleParser, type AddressObject } from 'mailparser';
import { createTransport } from '../../src/delivery/transports.js';
import { deliverDue } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { streamEnvelopes } from '../helpers/events.js';
import { startInbound } from '../helpers/inbound.js';
import { signedHeaders, verifyDkim, withConfig } from '../helpers/mail.js';
import { recipient, send, sender, type Sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { startPeer } from '../helpers/smtp-peer.js';

const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY, SPACING_SECONDS: '0' } });
const peer = await startPeer({ starttls: false });
const relay = createTransport(withConfig(svc.rt, { outbound: { kind: 'smtp', url: `smtp://127.0.0.1:${peer.port}` } }));
t.teardown(() => relay.close());
svc.dns.mx('destinataire.test', 'mx.destinataire.test', 10);
svc.dns.mx('autre.test', 'mx.autre.test', 10);
svc.dns.a('mx.destinataire.test', '127.0.0.1');
svc.dns.a('mx.autre.test', '127.0.0.1');
const directRt = withConfig(svc.rt, {
  outbound: { kind: 'direct' },
  directPort: peer.port,
  heloName: 'out.mailbox.test',
});
const direct = createTransport(directRt);

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) =>
    object.value.map((v) => ({ address: v.address, name: v.name })),
  );

/** Runs the delivery worker for the sender's inbox until its queue is empty. */
async function deliverAll(s: Sender, rt = svc.rt, transport = relay) {
  for (
    let next = await deliverDue(rt, transport, s.spaceId, s.inboxId);
    next !== null;
    next = await deliverDue(rt, transport, s.spaceId, s.inboxId)
  ) {
    clock.set(Math.max(next, clock.now() + 1));
  }
}

t.test('HTTP: "Name <address>", cc and bcc, shown in reads, events and the journal', async (t) => {
  const s = await sender(svc);
  const to = recipient('lea');
  const [cc1, cc2, bcc1] = [recipient('paul'), recipient('zoe'), recipient('cache')];
  const res = await send(svc, s, {
    to: `Léa Martin <${to.toUpperCase()}>`,
    cc: [`"Paul, compta" <${cc1}>`, cc2, to],
    bcc: [`Caché <${bcc1}>`, cc2],
  });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(
    res.body.message,
    {
      to,
      cc: [
        { address: cc1, name: 'Paul, compta' },
        { address: cc2, name: null },
      ],
      bcc: [{ address: bcc1, name: 'Caché' }],
    },
    'lowercase addresses; an address already in to or cc is written to once',
  );
  t.equal(res.body.thread.contact_name, 'Léa Martin', 'the name of the form fills to_name');
  const read = (await svc.call(s.apiKey, 'get_message', { message_id: res.body.message.id })).body;
  t.same([read.cc, read.bcc], [res.body.message.cc, res.body.message.bcc], 'get_message shows them');
  const thread = (await svc.call(s.apiKey, 'get_thread', { thread_id: res.body.thread.id })).body;
  t.same(thread.messages[0].cc.length, 2);
  t.same(thread.messages[0].bcc, [{ address: bcc1, name: 'Caché' }], 'the space sees its blind copies');
  for (const copy of [cc2, bcc1]) {
    const found = (await svc.call(s.apiKey, 'search_threads', { query: copy.split('@')[0]!.split('-')[1]! })).body;
    t.same(
      found.items.map((item: { thread: { id: string } }) => item.thread.id),
      [res.body.thread.id],
      `search_threads finds the copy ${copy}`,
    );
  }
  const same = await send(svc, s, { to: `Léa <${recipient()}>`, to_name: 'Léa' });
  t.equal(same.status, 200, 'a name given twice, the same: accepted');

  const line = (await svc.call(s.apiKey, 'list_events', { message_id: res.body.message.id })).body.events[0];
  t.equal(
    line.text,
    `Mise en file du message « Bonjour » pour ${to} (copie à ${cc1}, ${cc2} ; copie cachée à ${bcc1})`,
  );
  const queued = (await streamEnvelopes(svc.rt, s.spaceId)).find(
    (e) => e.type === 'mail.message.queued' && e.data.message_id === res.body.message.id,
  );
  t.match(
    queued?.data,
    { to, cc: [{ address: cc1 }, { address: cc2 }], bcc: [{ address: bcc1 }] },
    'the event carries every recipient',
  );

  const text = (
    await (await svc.mcp(s.apiKey)).callTool({ name: 'get_message', arguments: { message_id: res.body.message.id } })
  ).content as { text: string }[];
  t.match(text[0]!.text, `Copie à : « ${cc1} », « ${cc2} ».`);
  t.match(text[0]!.text, `Copie cachée à : « ${bcc1} » (jamais montrée aux destinataires).`);
});

t.test('MCP: the same forms through the official SDK client', async (t) => {
  const s = await sender(svc);
  const client = await svc.mcp(s.apiKey);
  const to = recipient('mcp');
  const cc = recipient('mcp-cc');
  const bcc = recipient('mcp-bcc');
  const res = await client.callTool({
    name: 'send_email',
    arguments: {
      inbox_id: s.inboxId,
      to: `Marie <${to}>`,
      cc: [`Jo <${cc}>`],
      bcc: [bcc],
      subject: 'Par MCP',
      text: 'Bonjour.',
    },
  });
  t.notOk(res.isError, JSON.stringify(res.structuredContent));
  t.match(res.structuredContent, {
    message: { to, cc: [{ address: cc, name: 'Jo' }], bcc: [{ address: bcc, name: null }] },
    thread: { contact_name: 'Marie' },
  });
  const refused = await client.callTool({
    name: 'send_email',
    arguments: { inbox_id: s.inboxId, to: recipient(), cc: ['pas une adresse'], subject: 'X', text: 'Y' },
  });
  t.equal(refused.isError, true);
  const body = JSON.parse((refused.content as { text: string }[])[1]!.text);
  t.match(body, { error: { code: 'invalid_argument', hint: { parameter: 'cc[0]' } } });
});

t.test(
  'the relay peer gets one transaction to every recipient; Cc in the header, bcc nowhere; DKIM passes',
  async (t) => {
    const s = await sender(svc);
    const to = recipient('lea');
    const [cc, bcc] = [`copie-${Date.now()}@autre.test`, recipient('cache')];
    const res = await send(svc, s, { to, cc: [`Paul <${cc}>`], bcc: [bcc] });
    t.equal(res.status, 200, JSON.stringify(res.body));
    await deliverAll(s);
    const got = await peer.next();
    t.same(got.to, [to, cc, bcc], 'one envelope: to, the copy and the blind copy');
    t.equal(peer.received.filter((r) => r.raw.includes(res.body.message.id)).length, 1, 'one transaction');
    const parsed = await simpleParser(got.raw);
    t.same(addresses(parsed.cc), [{ address: cc, name: 'Paul' }], 'the Cc header');
    t.notOk(got.raw.toString('utf8').toLowerCase().includes(bcc), 'the blind copy appears nowhere in the bytes');
    t.notOk(parsed.headers.has('bcc'));
    const [signature] = await verifyDkim(svc.dns, got.raw);
    t.equal(signature?.status.result, 'pass', signature?.info ?? 'no signature');
    t.ok(signedHeaders(got.raw).includes('cc'), 'h= covers Cc');
    const sent = (await svc.call(s.apiKey, 'get_message', { message_id: res.body.message.id })).body;
    t.equal(sent.status, 'sent');
    const lines = (await svc.call(s.apiKey, 'list_events', { message_id: res.body.message.id })).body.events;
    t.match(
      lines[0].text,
      `(copie à ${cc} ; copie cachée à ${bcc})`,
      'the journal line of the departure names every recipient',
    );
  },
);

t.test('a copy suppressed after the message was queued is left out at departure', async (t) => {
  const s = await sender(svc);
  const [to, kept, blocked] = [recipient('lea'), recipient('garde'), recipient('parti')];
  const res = await send(svc, s, { to, cc: [kept, blocked] });
  t.equal((await svc.call(s.apiKey, 'add_suppression', { value: blocked })).status, 200);
  await deliverAll(s);
  const got = await peer.next();
  t.same(got.to, [to, kept], 'not in the envelope');
  t.same(
    addresses((await simpleParser(got.raw)).cc).map((m) => m.address),
    [kept],
    'nor in the Cc header',
  );
  t.equal(
    (await svc.call(s.apiKey, 'get_message', { message_id: res.body.message.id })).body.status,
    'sent',
    'the others got it',
  );
});

t.test('direct delivery: one transaction per recipient domain', async (t) => {
  const s = await sender(svc);
  const to = recipient('lea');
  const [sameDomain, otherDomain] = [recipient('collegue'), `ailleurs-${Date.now()}@autre.test`];
  const before = peer.received.length;
  const res = await send(svc, s, { to, cc: [otherDomain], bcc: [sameDomain] });
  await deliverAll(s, directRt, direct);
  const mine = peer.received.slice(before).filter((r) => r.raw.includes(res.body.message.id));
  t.same(
    mine.map((r) => r.to).sort(),
    [[to, sameDomain], [otherDomain]].sort(),
    "each domain's recipients in one transaction",
  );
  t.equal((await svc.call(s.apiKey, 'get_message', { message_id: res.body.message.id })).body.status, 'delivered');
});

t.test("reply_all: the other people of the message answered, the space's own inboxes left out", async (t) => {
  const s = await sender(svc);
  const other = await svc.call(s.apiKey, 'create_inbox', {
    username: 'support',
    domain: s.domain,
    display_name: 'Support',
  });
  t.equal(other.status, 200, JSON.stringify(other.body));
  const inbound = await startInbound(svc);
  const subject = `Devis ${Date.now()}`;
  await inbound.send({
    from: 'Paul <paul@client.test>',
    to: [s.address, 'Anne <anne@client.test>'],
    cc: ['Zoé <zoe@partenaire.test>', other.body.address],
    subject,
    text: 'Pouvez-vous nous faire un devis ?',
  });
  const threads = (await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId })).body;
  const thread = threads.items.find((item: { subject: string }) => item.subject === subject);
  t.ok(thread, JSON.stringify(threads));
  const received = (await svc.call(s.apiKey, 'get_thread', { thread_id: thread.id })).body.messages[0];
  t.same(
    received.cc,
    [
      { address: 'zoe@partenaire.test', name: 'Zoé' },
      { address: other.body.address, name: null },
    ],
    'a received message shows its Cc',
  );

  const plain = await svc.call(s.apiKey, 'reply_to_thread', {
    thread_id: thread.id,
    text: 'Avec plaisir.',
    dry_run: true,
  });
  t.equal(plain.status, 200);
  const all = await svc.call(s.apiKey, 'reply_to_thread', {
    thread_id: thread.id,
    reply_all: true,
    bcc: ['archive@client.test'],
    text: 'Avec plaisir, à tous.',
  });
  t.equal(all.status, 200, JSON.stringify(all.body));
  t.equal(all.body.message.to, 'paul@client.test');
  t.same(all.body.message.cc, [
    { address: 'anne@client.test', name: 'Anne' },
    { address: 'zoe@partenaire.test', name: 'Zoé' },
  ]);
  t.same(all.body.message.bcc, [{ address: 'archive@client.test', name: null }]);
  t.equal(all.body.estimated_send_at, new Date(clock.now()).toISOString(), 'an answer to people who wrote leaves now');

  // Answering our own message: its to and cc, never its bcc.
  clock.advance(60_000);
  const again = await svc.call(s.apiKey, 'reply_to_thread', {
    thread_id: thread.id,
    reply_all: true,
    text: 'Et un détail.',
  });
  t.same(
    again.body.message.cc.map((m: { address: string }) => m.address),
    ['anne@client.test', 'zoe@partenaire.test'],
  );

  const stranger = await sender(svc);
  const foreign = await svc.call(stranger.apiKey, 'reply_to_thread', {
    thread_id: thread.id,
    reply_all: true,
    text: 'x',
  });
  t.equal(foreign.body.error.code, 'not_found', "another space's thread stays not_found");
});

t.test('drafts: created with copies, corrected with new ones, approved with them', async (t) => {
  const s = await sender(svc);
  const cc = recipient('cc');
  const draft = await send(svc, s, { cc: [cc], requires_approval: true });
  t.match(draft.body.message, { status: 'draft', cc: [{ address: cc }] });
  const listed = (await svc.call(s.apiKey, 'list_drafts', {})).body.items[0];
  t.same(listed.cc, [{ address: cc, name: null }], 'list_drafts shows them');
  const bcc = recipient('bcc');
  const corrected = await svc.call(s.apiKey, 'update_draft', {
    message_id: draft.body.message.id,
    bcc: [`Chef <${bcc}>`],
  });
  t.equal(corrected.status, 200, JSON.stringify(corrected.body));
  t.match(corrected.body, { revision: '2', cc: [{ address: cc }], bcc: [{ address: bcc, name: 'Chef' }] });
  const line = (await svc.call(s.apiKey, 'list_events', { message_id: draft.body.message.id })).body.events[0];
  t.match(line.text, /copies cachées/);
  await svc.call(s.apiKey, 'add_suppression', { value: bcc });
  const blocked = await svc.call(s.apiKey, 'approve_message', { message_id: draft.body.message.id, revision: '2' });
  t.equal(blocked.body.error?.code, 'recipient_suppressed', 'approval judges every recipient again');
  t.equal(blocked.body.error?.hint?.recipient, bcc);
  const cleared = await svc.call(s.apiKey, 'update_draft', { message_id: draft.body.message.id, bcc: [] });
  t.same(cleared.body.bcc, []);
  const approved = await svc.call(s.apiKey, 'approve_message', { message_id: draft.body.message.id, revision: '3' });
  t.equal(approved.status, 200, JSON.stringify(approved.body));
  t.same(approved.body.message.cc, [{ address: cc, name: null }]);
});
