/** list_threads, get_thread and classify_thread: paging, the body budget, classification, every refusal. */
import t from 'tap';
import { receiveInbound } from '../../actors/inbound.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { iso } from '../../src/clock.js';
import { idTime } from '../../src/ids.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, send, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';
import { mailFrom } from '../helpers/mail.js';

const svc = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always' } });

const s = await sender(svc);
const inbox = { id: s.inboxId, address: s.address };
const correspondent = recipient('long');
const body = 'é'.repeat(2555); // about 5 KB in UTF-8: 40 of them fit in 200 KB, not 41
for (let i = 0; i < 120; i++)
  await receiveInbound(svc.rt, s.spaceId, inbox, mailFrom(correspondent, 'Long échange', `${i}\n${body}`));
const other = await receiveInbound(svc.rt, s.spaceId, inbox, mailFrom(recipient('court'), 'Autre sujet', 'Bonjour'));

t.test('get_thread on a 120-message thread pages 50/50/20 and truncates past 200 KB', async (t) => {
  const list = await svc.call(s.apiKey, 'list_threads', { contact: correspondent });
  t.equal(list.body.items.length, 1);
  const threadId = list.body.items[0].id;
  t.equal(list.body.items[0].message_count, 120);
  const pages = [];
  let cursor: string | undefined;
  do {
    const res = await svc.call(s.apiKey, 'get_thread', { thread_id: threadId, ...(cursor ? { cursor } : {}) });
    t.equal(res.status, 200);
    pages.push(res.body);
    cursor = res.body.next_cursor ?? undefined;
  } while (cursor);
  t.same(
    pages.map((p) => p.messages.length),
    [50, 50, 20],
  );
  t.same(
    pages.map((p) => p.truncated),
    [true, true, false],
  );
  const first = pages[0].messages;
  t.equal(first[0].text.startsWith('0\n'), true, 'oldest first');
  t.notOk(first[39].truncated, '40 bodies of 5 KB fit in 200 KB');
  t.equal(first[40].truncated, true);
  t.equal(first[49].text, '', 'past the budget, bodies are empty');
  t.equal(pages[2].messages[19].text.startsWith('119\n'), true);
});

t.test('a new message and its new thread keep no field at its default in Redis; reads show them whole', async (t) => {
  const own = await sender(svc);
  const keys = spaceKeys(own.spaceId);
  const sent = await send(svc, own, { to: recipient('defauts'), subject: 'Sans champs vides', text: 'Bonjour' });
  t.equal(sent.status, 200);
  const received = await receiveInbound(
    svc.rt,
    own.spaceId,
    { id: own.inboxId, address: own.address },
    mailFrom(recipient('recu'), 'Reçu', 'Bonjour'),
  );
  for (const [kind, key] of [
    ['sent message', keys.message(sent.body.message.id)],
    ['received message', keys.message(received.message_id)],
    ['new thread', keys.thread(received.thread_id)],
  ] as const) {
    const stored = await svc.rt.redis.hgetall(key);
    const defaults = Object.entries(stored).filter(
      ([field, value]) => value === '' || value === '[]' || (value === '0' && field !== 'message_count'),
    );
    t.same(defaults, [], `the ${kind} stores no default`);
    // Nor what its key and its id imply: the id, its creation at the id's time, a sent message's Message-ID.
    const id = key.slice(-24);
    t.notOk('id' in stored, `the ${kind} does not store its id`);
    t.not(stored.created_at, iso(idTime(id)), `the ${kind} stores its creation only when it is not its id's time`);
    if (kind === 'sent message')
      t.notOk('message_id_header' in stored, 'the sent message does not store its own Message-ID');
    if (kind === 'new thread')
      t.notOk('last_message_at' in stored, 'a thread of one message does not store its last activity, its creation');
  }
  const createdAt = async (key: string) => (await svc.rt.redis.hget(key, 'created_at')) ?? iso(idTime(key.slice(-24)));
  const read = await svc.call(own.apiKey, 'get_message', { message_id: received.message_id });
  t.match(read.body, {
    reply_to: null,
    html: null,
    metadata: null,
    sent_at: null,
    status_code: null,
    attachments: [],
    auto_reply: false,
  });
  t.match(read.body, { id: received.message_id, created_at: await createdAt(keys.message(received.message_id)) });
  const sentRead = await svc.call(own.apiKey, 'get_message', { message_id: sent.body.message.id });
  t.match(sentRead.body, {
    id: sent.body.message.id,
    created_at: await createdAt(keys.message(sent.body.message.id)),
    headers: { message_id: `<${sent.body.message.id}@${own.domain}>` },
  });
  const thread = await svc.call(own.apiKey, 'get_thread', { thread_id: received.thread_id });
  t.match(thread.body.thread, {
    id: received.thread_id,
    labels: [],
    archived: false,
    unread: true,
    campaign_id: null,
    created_at: await createdAt(keys.thread(received.thread_id)),
  });
  t.equal(thread.body.thread.last_message_at, thread.body.thread.created_at);
});

t.test("a thread's snippet follows its latest message; a message tells what it answers and who wrote it", async (t) => {
  const own = await sender(svc);
  const writer = await svc.key(own.apiKey, { name: 'rédacteur', permissions: ['send', 'read'] });
  const contact = recipient('apercu');
  const threadOf = async (id: string) => (await svc.call(own.apiKey, 'get_thread', { thread_id: id })).body;
  const sent = await svc.call(writer.apiKey, 'send_email', {
    inbox_id: own.inboxId,
    to: contact,
    subject: 'Devis',
    text: 'Bonjour,\n\nvoici   notre devis.',
  });
  const threadId = sent.body.thread.id;
  t.equal(sent.body.thread.snippet, 'Bonjour, voici notre devis.', 'spaces collapsed');
  t.match(sent.body.message, {
    in_reply_to_id: null,
    written_by: { key_id: writer.keyId, name: 'rédacteur' },
    campaign_id: null,
  });
  const long = `Merci pour le devis, ${'très '.repeat(30)}intéressant.\n\n> Bonjour,\n> voici notre devis.`;
  const answer = await receiveInbound(
    svc.rt,
    own.spaceId,
    { id: own.inboxId, address: own.address },
    mailFrom(contact, 'Re: Devis', long, { in_reply_to: `<${sent.body.message.id}@${own.domain}>` }),
  );
  const read = await threadOf(threadId);
  t.match(read.thread.snippet, /^Merci pour le devis, très .*très…$/, 'the new part of the answer, cut on a word');
  t.ok(Array.from(read.thread.snippet as string).length <= 101, 'at most 100 characters and the ellipsis');
  t.match(
    read.messages[1],
    { id: answer.message_id, in_reply_to_id: sent.body.message.id, written_by: null },
    'a received answer names the message it answers',
  );
  t.equal(
    (await svc.call(own.apiKey, 'list_threads', { contact })).body.items[0].snippet,
    read.thread.snippet,
    'list_threads shows it',
  );

  const draft = await svc.call(writer.apiKey, 'reply_to_thread', {
    thread_id: threadId,
    text: 'Avec plaisir.',
    requires_approval: true,
  });
  t.match(draft.body, {
    thread: { snippet: 'Avec plaisir.' },
    message: { in_reply_to_id: answer.message_id, written_by: { name: 'rédacteur' } },
  });
  const drafts = (await svc.call(own.apiKey, 'list_drafts', {})).body.items;
  t.match(
    drafts[0],
    {
      id: draft.body.message.id,
      in_reply_to_id: answer.message_id,
      written_by: { key_id: writer.keyId, name: 'rédacteur' },
    },
    'list_drafts tells what a draft answers and who wrote it',
  );
  const corrected = await svc.call(own.apiKey, 'update_draft', {
    message_id: draft.body.message.id,
    text: 'Avec grand plaisir.',
  });
  t.equal(corrected.status, 200, JSON.stringify(corrected.body));
  t.equal(
    (await threadOf(threadId)).thread.snippet,
    'Avec grand plaisir.',
    "the corrected draft, the thread's latest message, gives its snippet",
  );
  await svc.call(writer.apiKey, 'reply_to_thread', {
    thread_id: threadId,
    text: 'Une autre réponse.',
    requires_approval: true,
  });
  await svc.call(own.apiKey, 'update_draft', { message_id: draft.body.message.id, text: 'Corrigé encore.' });
  t.equal(
    (await threadOf(threadId)).thread.snippet,
    'Une autre réponse.',
    'a draft no longer the latest leaves the snippet alone',
  );

  t.equal((await svc.call(own.apiKey, 'revoke_key', { key_id: writer.keyId, confirm: true })).status, 200);
  t.match(
    (await svc.call(own.apiKey, 'get_message', { message_id: draft.body.message.id })).body.written_by,
    { key_id: writer.keyId, name: null },
    'a removed access has no name',
  );
});

t.test(
  'a journal line about a message stores its subject nowhere and its correspondent once; list_events reads them back',
  async (t) => {
    const own = await sender(svc);
    const ownInbox = { id: own.inboxId, address: own.address };
    const writer = recipient('journal');
    const first = await receiveInbound(svc.rt, own.spaceId, ownInbox, mailFrom(writer, 'Devis « urgent »', 'Bonjour'));
    const answer = await receiveInbound(
      svc.rt,
      own.spaceId,
      ownInbox,
      mailFrom(writer, 'Re: Devis « urgent »', 'Encore moi', { in_reply_to: '' }),
    );
    const sent = await send(svc, own, { to: recipient('journal-envoi'), subject: 'Proposition', text: 'Bonjour' });
    const lines = await svc.rt.redis.hvals(spaceKeys(own.spaceId).journal);
    const about = lines.filter((line) => /"kind":"(message\.received|thread\.replied|message\.queued)"/.test(line));
    t.equal(about.length, 3, 'a line for each message');
    for (const line of about) {
      t.notMatch(line, /Devis|Proposition/, `stored without its subject: ${line}`);
      t.equal(line.split('@destinataire.test').length, 2, `its address once, as its contact: ${line}`);
    }
    const texts = async (query: object) =>
      (await svc.call(own.apiKey, 'list_events', query)).body.events.map((e: { text: string; contact?: string }) => [
        e.text,
        e.contact,
      ]);
    t.equal(answer.thread_id, first.thread_id, 'the answer is in the first message’s thread');
    t.same(await texts({ thread_id: first.thread_id }), [
      [`Réponse de « ${writer} » dans le fil « Re: Devis « urgent » »`, writer],
      [`Réception du message de « ${writer} » : « Devis « urgent » »`, writer],
    ]);
    t.same(await texts({ message_id: sent.body.message.id }), [
      [`Mise en file du message « Proposition » pour ${sent.body.message.to}`, sent.body.message.to],
    ]);
    const trial = await send(svc, own, { to: own.address, subject: 'Essai', text: 'Bonjour', test: true });
    t.equal(trial.status, 200, JSON.stringify(trial.body));
    const trialLine = (await svc.rt.redis.hvals(spaceKeys(own.spaceId).journal)).find((line) =>
      line.includes(trial.body.message.id.slice(4)),
    )!;
    t.notMatch(
      trialLine,
      /"test"|Essai|key_/,
      `a test send's line leaves the flag to its message, its key id without prefix: ${trialLine}`,
    );
    t.same(await texts({ message_id: trial.body.message.id }), [
      [`Mise en file du message de test « Essai » pour ${own.address}`, own.address],
    ]);
    // The inbox a restricted key's reach is judged by is the message's, put back before the judgement.
    const reader = await svc.key(own.apiKey, {
      name: 'lecture-boite',
      permissions: ['read'],
      inbox_ids: [own.inboxId],
    });
    const seen = await svc.call(reader.apiKey, 'list_events', { contact: writer });
    t.same(
      seen.body.events.map((e: { kind: string; inbox_id: string; thread_id: string }) => [
        e.kind,
        e.inbox_id,
        e.thread_id,
      ]),
      [
        ['thread.replied', own.inboxId, first.thread_id],
        ['message.received', own.inboxId, first.thread_id],
      ],
    );
  },
);
t.test(
  'a thread of up to 8 messages keeps their ids and search numbers in its hash; the 9th moves them all to its own keys, in order',
  async (t) => {
    const own = await sender(svc);
    const keys = spaceKeys(own.spaceId);
    const ownInbox = { id: own.inboxId, address: own.address };
    const contact = recipient('huit');
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      ids.push(
        (await receiveInbound(svc.rt, own.spaceId, ownInbox, mailFrom(contact, 'Huit messages', `bordereau ${i}`)))
          .message_id,
      );
      if (i === 7) {
        const threadId = (await svc.call(own.apiKey, 'list_threads', { contact })).body.items[0].id;
        t.equal(await svc.rt.redis.hget(keys.thread(threadId), 'msgs'), ids.join(' '), 'eight ids in the hash');
        t.equal(await svc.rt.redis.exists(keys.threadMessages(threadId)), 0, 'no sorted set yet');
        t.equal(
          (await svc.rt.redis.hgetBuffer(keys.thread(threadId), 'docs'))!.length,
          8 * 3,
          'eight search numbers in the hash',
        );
        t.equal(await svc.rt.redis.exists(keys.searchThread(threadId)), 0, 'no posting of its own yet');
      }
    }
    const threadId = (await svc.call(own.apiKey, 'list_threads', { contact })).body.items[0].id;
    t.equal(await svc.rt.redis.hget(keys.thread(threadId), 'msgs'), null, 'the field gone');
    t.same(
      await svc.rt.redis.zrange(keys.threadMessages(threadId), '0', '-1'),
      ids,
      'all nine in the set, oldest first',
    );
    t.equal(await svc.rt.redis.hget(keys.thread(threadId), 'docs'), null, 'the search numbers gone from the hash');
    t.equal((await svc.rt.redis.getBuffer(keys.searchThread(threadId)))!.length, 9 * 3, 'all nine in its posting');
    const read = await svc.call(own.apiKey, 'get_thread', { thread_id: threadId });
    t.same(
      read.body.messages.map((m: { id: string }) => m.id),
      ids,
    );
    const found = await svc.call(own.apiKey, 'search_threads', { query: 'bordereau' });
    t.same(
      found.body.items.map((hit: { message_ids: string[] }) => hit.message_ids),
      [[...ids].reverse()],
      'search reads the numbers where they are',
    );
  },
);

t.test('a thread whose ids are in its sorted set (stored before the field) keeps filing there', async (t) => {
  const own = await sender(svc);
  const keys = spaceKeys(own.spaceId);
  const ownInbox = { id: own.inboxId, address: own.address };
  const contact = recipient('ancien');
  const first = await receiveInbound(svc.rt, own.spaceId, ownInbox, mailFrom(contact, 'Ancien fil', 'un'));
  await svc.rt.redis
    .multi()
    .zadd(keys.threadMessages(first.thread_id), '0', first.message_id)
    .hdel(keys.thread(first.thread_id), 'msgs')
    .exec();
  const second = await receiveInbound(svc.rt, own.spaceId, ownInbox, mailFrom(contact, 'Ancien fil', 'deux'));
  t.equal(second.thread_id, first.thread_id);
  t.equal(
    await svc.rt.redis.hget(keys.thread(first.thread_id), 'msgs'),
    null,
    'no field for a thread that has its set',
  );
  t.same(await svc.rt.redis.zrange(keys.threadMessages(first.thread_id), '0', '-1'), [
    first.message_id,
    second.message_id,
  ]);
  const read = await svc.call(own.apiKey, 'get_thread', { thread_id: first.thread_id });
  t.same(
    read.body.messages.map((m: { text: string }) => m.text),
    ['un', 'deux'],
  );
});

t.test('list_threads: newest activity first, filters, cursor', async (t) => {
  const all = await svc.call(s.apiKey, 'list_threads', { limit: 1 });
  t.equal(all.body.items[0].id, other.thread_id, 'the latest activity first');
  const next = await svc.call(s.apiKey, 'list_threads', { limit: 1, cursor: all.body.next_cursor });
  t.equal(next.body.items[0].contact, correspondent);
  t.equal(next.body.next_cursor, null);
  t.equal((await svc.call(s.apiKey, 'list_threads', { unread: false })).body.items.length, 0);
});

t.test(
  'list_threads pages every thread once: threads at one activity ms, runs of filtered threads longer than a read',
  async (t) => {
    const own = await sender(svc);
    const ownInbox = { id: own.inboxId, address: own.address };
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push(
        (await receiveInbound(svc.rt, own.spaceId, ownInbox, mailFrom(recipient(`page${i}`), `Fil ${i}`, 'Bonjour')))
          .thread_id,
      );
    const newestFirst = [...ids].sort().reverse();
    // Thirty archived in a row: a page of the open ones reads past them.
    const archived = new Set(newestFirst.slice(5, 35));
    for (const id of archived)
      t.equal((await svc.call(own.apiKey, 'classify_thread', { thread_id: id, archived: true })).status, 200);
    // One activity ms for all: the order is the thread id's, descending, and cursors point inside one score.
    const keys = spaceKeys(own.spaceId);
    await svc.rt.redis.zadd(keys.threads, ...ids.flatMap((id) => ['1700000000000', id]));
    const pages = async (filter: Record<string, unknown>, limit: number) => {
      const seen: string[][] = [];
      let cursor: string | undefined;
      do {
        const res = await svc.call(own.apiKey, 'list_threads', { ...filter, limit, ...(cursor ? { cursor } : {}) });
        t.equal(res.status, 200);
        seen.push(res.body.items.map((thread: { id: string }) => thread.id));
        cursor = res.body.next_cursor ?? undefined;
      } while (cursor);
      return seen;
    };
    const open = await pages({}, 3);
    t.same(
      open.flat(),
      newestFirst.filter((id) => !archived.has(id)),
      'the ten open threads, each once, in order',
    );
    t.same(
      open.map((page) => page.length),
      [3, 3, 3, 1],
    );
    const kept = await pages({ archived: true }, 7);
    t.same(
      kept.flat(),
      newestFirst.filter((id) => archived.has(id)),
      'the thirty archived, each once, in order',
    );
    t.same(
      kept.map((page) => page.length),
      [7, 7, 7, 7, 2],
    );
  },
);

t.test('classify_thread replaces labels, archives and restores, marks read and unread', async (t) => {
  const thread = other.thread_id;
  let res = await svc.call(s.apiKey, 'classify_thread', {
    thread_id: thread,
    labels: ['prospect', 'chaud'],
    read: true,
  });
  t.match(res.body.thread, { labels: ['prospect', 'chaud'], unread: false });
  res = await svc.call(s.apiKey, 'classify_thread', { thread_id: thread, labels: ['client'], archived: true });
  t.match(res.body.thread, { labels: ['client'], archived: true });
  t.equal(
    (await svc.call(s.apiKey, 'list_threads', { label: 'client' })).body.items.length,
    0,
    'archived threads are left out',
  );
  t.equal((await svc.call(s.apiKey, 'list_threads', { label: 'client', archived: true })).body.items.length, 1);
  res = await svc.call(s.apiKey, 'classify_thread', { thread_id: thread, archived: false, read: false });
  t.match(res.body.thread, { archived: false, unread: true });
  const journal = await svc.call(s.apiKey, 'list_events', { thread_id: thread });
  t.ok(journal.status === 200 || journal.status === 400, 'journal readable');
});

t.test('every refusal of the three tools', async (t) => {
  const { apiKey: stranger } = await svc.space();
  const readOnly = await svc.key(s.apiKey, { name: `lecture-${Date.now()}`, permissions: ['read'] });
  const sendOnly = await svc.key(s.apiKey, { name: `envoi-${Date.now()}`, permissions: ['send'] });
  const thread = other.thread_id;
  const code = async (key: string, tool: string, body: unknown) => (await svc.call(key, tool, body)).body.error?.code;
  t.equal(await code(stranger, 'get_thread', { thread_id: thread }), 'not_found', 'another space');
  t.equal(await code(stranger, 'classify_thread', { thread_id: thread, read: true }), 'not_found');
  t.equal(await code(stranger, 'list_threads', { inbox_id: s.inboxId }), 'not_found');
  t.equal(await code(sendOnly.apiKey, 'get_thread', { thread_id: thread }), 'forbidden');
  t.equal(await code(sendOnly.apiKey, 'list_threads', {}), 'forbidden');
  t.equal(await code(readOnly.apiKey, 'classify_thread', { thread_id: thread, read: true }), 'forbidden');
  t.equal(await code('mbx_nope', 'list_threads', {}), 'unauthorized');
  t.equal(await code(s.apiKey, 'get_thread', { thread_id: 'thr_x' }), 'invalid_argument');
  t.equal(await code(s.apiKey, 'get_thread', { thread_id: thread, cursor: 'forgé' }), 'invalid_argument');
  t.equal(await code(s.apiKey, 'list_threads', { cursor: 'forgé' }), 'invalid_argument');
  t.equal(await code(s.apiKey, 'list_threads', { limit: 500 }), 'invalid_argument');
  t.equal(await code(s.apiKey, 'list_threads', { folder: 'x' }), 'invalid_argument');
  t.equal(await code(s.apiKey, 'classify_thread', { thread_id: thread }), 'invalid_argument', 'nothing to change');
  t.equal(
    await code(s.apiKey, 'classify_thread', {
      thread_id: thread,
      labels: Array.from({ length: 21 }, (_, i) => `l${i}`),
    }),
    'invalid_argument',
  );
  t.equal(await code(s.apiKey, 'classify_thread', { thread_id: thread, labels: ['x'.repeat(41)] }), 'invalid_argument');
  t.equal(await code(s.apiKey, 'classify_thread', { thread_id: thread, labels: ['a', 'a'] }), 'invalid_argument');
  t.equal(
    await code(s.apiKey, 'classify_thread', { thread_id: thread, labels: ['a', ' a '] }),
    'invalid_argument',
    'a duplicate once trimmed',
  );
  t.equal(await code(s.apiKey, 'classify_thread', { thread_id: thread, labels: ['  '] }), 'invalid_argument');
  t.equal(await code(s.apiKey, 'classify_thread', { thread_id: 'thr_00000000000000000000', read: true }), 'not_found');
  const second = await svc.call(s.apiKey, 'create_inbox', {
    username: `autre${Date.now().toString(36)}`,
    domain: s.domain,
    display_name: 'Autre',
  });
  const restricted = await svc.key(s.apiKey, {
    name: `restreinte-${Date.now()}`,
    permissions: ['read', 'send'],
    inbox_ids: [second.body.id],
  });
  t.equal(
    await code(restricted.apiKey, 'get_thread', { thread_id: thread }),
    'not_found',
    'a restricted key sees its inboxes only',
  );
  t.equal(await code(restricted.apiKey, 'classify_thread', { thread_id: thread, read: true }), 'not_found');
  t.equal(await code(restricted.apiKey, 'list_threads', { inbox_id: s.inboxId }), 'not_found');
  t.equal((await svc.call(restricted.apiKey, 'list_threads', {})).body.items.length, 0);
});

t.test(
  'a Message-ID received again by the same inbox is a duplicate of the first; cited, it threads; another inbox stores its own',
  async (t) => {
    const own = await sender(svc);
    const ownInbox = { id: own.inboxId, address: own.address };
    const header = `<${Math.random().toString(36).slice(2)}@ailleurs.test>`;
    const first = await receiveInbound(
      svc.rt,
      own.spaceId,
      ownInbox,
      mailFrom(recipient('double'), 'Une fois', 'Bonjour', { message_id_header: header }),
    );
    const again = await receiveInbound(
      svc.rt,
      own.spaceId,
      ownInbox,
      mailFrom(recipient('double'), 'Une fois', 'Bonjour', { message_id_header: header }),
    );
    t.match(again, { duplicate: true, message_id: first.message_id, thread_id: first.thread_id });
    const answer = await receiveInbound(
      svc.rt,
      own.spaceId,
      ownInbox,
      mailFrom(recipient('tiers'), 'Autre chose', 'Je cite', { in_reply_to: header }),
    );
    t.equal(answer.thread_id, first.thread_id, 'a mail citing it joins its thread');
    const entries = await svc.rt.redis.hgetall(spaceKeys(own.spaceId).messageIds);
    t.same(
      Object.values(entries),
      [`${first.message_id.slice(4)}${first.thread_id.slice(4)}`],
      'one entry, the ids’ bodies',
    );
    t.match(Object.keys(entries)[0], /^[A-Za-z0-9_-]{16}$/, 'filed under 16 characters');
    const box = await svc.call(own.apiKey, 'create_inbox', {
      username: `autre-${Math.random().toString(36).slice(2, 8)}`,
      display_name: 'Autre',
    });
    t.equal(box.status, 200, JSON.stringify(box.body));
    const elsewhere = await receiveInbound(
      svc.rt,
      own.spaceId,
      { id: box.body.id, address: box.body.address },
      mailFrom(recipient('double'), 'Une fois', 'Bonjour', { message_id_header: header }),
    );
    t.match(elsewhere, { duplicate: false });
    t.not(elsewhere.message_id, first.message_id, 'another inbox stores its own copy');
  },
);
