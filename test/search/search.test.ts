/**
 * search_threads: words of subjects, correspondents and bodies, received and sent, found whatever
 * their case and accents, the last word as a prefix; newest match first, each thread once across
 * pages; inbox restrictions, labels, erasure with the space, every refusal.
 */
import t from 'tap';
import { receiveInbound } from '../../actors/inbound.js';
import { eraseSpace, ERASURE_DELAY_MS } from '../../actors/closure.js';
import { filePending } from '../../actors/search.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { lastCode } from '../helpers/codes.js';
import { startInbound } from '../helpers/inbound.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { mailFrom } from '../helpers/mail.js';

const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always' } });

const s = await sender(svc);
const inbox = { id: s.inboxId, address: s.address };

interface Item {
  thread: { id: string; subject: string; inbox_id: string };
  message_ids: string[];
  snippet: string;
}

async function search(
  body: Record<string, unknown>,
  key = s.apiKey,
): Promise<{ items: Item[]; next_cursor: string | null }> {
  const res = await svc.call(key, 'search_threads', body);
  if (res.status !== 200) throw new Error(`search_threads ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
  return res.body;
}
const threadsFound = async (query: string, extra: Record<string, unknown> = {}, key = s.apiKey): Promise<string[]> =>
  (await search({ query, ...extra }, key)).items.map((item) => item.thread.id);

const quote = await receiveInbound(
  svc.rt,
  s.spaceId,
  inbox,
  mailFrom(
    'elodie@charpentes-martin.test',
    'Devis charpente',
    'Bonjour,\nvoici notre proposition pour la toiture du hangar.',
    { from_name: 'Élodie MARTIN' },
  ),
);

t.test("a received message is found by its subject, its sender's name and address, and its text", async (t) => {
  for (const query of [
    'charpente',
    'DEVIS',
    'élodie',
    'elodie martin',
    'charpentes-martin.test',
    'toiture',
    'hangar toiture',
    'Toîture',
  ]) {
    t.same(await threadsFound(query), [quote.thread_id], query);
  }
  t.same(await threadsFound('charpente piscine'), [], 'every word must be found');
  const [item] = (await search({ query: 'hangar' })).items;
  t.same(item!.message_ids, [quote.message_id]);
  t.match(item!.snippet, /toiture du hangar/);
  t.match(item!.thread, { id: quote.thread_id, subject: 'Devis charpente', inbox_id: s.inboxId });
});

t.test('mail received over SMTP is found, HTML-only mail by its text version', async (t) => {
  const inbound = await startInbound(svc);
  await inbound.send({
    from: { name: 'Gaëlle Roux', address: recipient('gaelle') },
    to: s.address,
    subject: 'Plan du grenier',
    html: '<p>Voici le <b>plan</b> annoté du grenier.</p>',
  });
  const [item] = (await search({ query: 'gaelle annote' })).items;
  t.match(item, { thread: { subject: 'Plan du grenier' } });
  t.match(item!.snippet, /annoté du grenier/);
});

t.test('a letter NFKD writes as several words is stored, announced and found, received or sent', async (t) => {
  const received = await receiveInbound(
    svc.rt,
    s.spaceId,
    inbox,
    mailFrom('imam@mosquee.test', 'Invitation ﷺ', 'Que la paix soit sur le Prophète ﷺ.'),
  );
  t.notOk(received.duplicate);
  const sent = await svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to: recipient('fatima'),
    subject: 'Réponse ﷺ',
    text: 'Merci ﷺ, 𝐅𝐚𝐜𝐭𝐮𝐫𝐞 jointe.',
  });
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  t.same(await threadsFound('invitation'), [received.thread_id]);
  t.same((await threadsFound('الله')).sort(), [received.thread_id, sent.body.message.thread_id].sort());
  t.same(await threadsFound('facture jointe'), [sent.body.message.thread_id], 'a capital NFKD gives is folded');
  const events = await svc.call(s.apiKey, 'event_feed', { limit: 100 });
  const types = events.body.events
    .filter((e: { data: { message_id?: string } }) =>
      [received.message_id, sent.body.message.id].includes(e.data.message_id ?? ''),
    )
    .map((e: { type: string }) => e.type);
  t.same(types.sort(), ['mail.message.queued', 'mail.message.received']);
});

t.test('the last word is a prefix; the others are whole words', async (t) => {
  t.same(await threadsFound('charp'), [quote.thread_id]);
  t.same(await threadsFound('devis toit'), [quote.thread_id]);
  t.same(await threadsFound('toit devis'), [], '"toit" is no word of the message');
  t.same(await threadsFound('la'), [], 'a stop word alone is a prefix: it finds only longer words');
  t.same(await threadsFound('hangar du'), [quote.thread_id], 'a stop word beside other words is left out');
});

t.test(
  'a word of one document is a field of s:once, found whole and as a prefix; its second document gives it a posting of its own',
  async (t) => {
    const keys = spaceKeys(s.spaceId);
    const first = await receiveInbound(
      svc.rt,
      s.spaceId,
      inbox,
      mailFrom(recipient('rare'), 'Xylophagegamma', 'Bonjour'),
    );
    await filePending(svc.rt, s.spaceId, true);
    t.equal((await svc.rt.redis.hgetBuffer(keys.searchOnce, 'xylophagegamma'))?.length, 3, 'its number in s:once');
    t.equal(await svc.rt.redis.exists(keys.searchWord('xylophagegamma')), 0, 'no key of its own');
    t.same(await threadsFound('xylophagegamma'), [first.thread_id], 'found as a whole word');
    t.same(await threadsFound('xylophag'), [first.thread_id], 'found as a prefix');
    t.same(await threadsFound('xylophagegamma bonjour'), [first.thread_id], 'beside a word of many documents');
    const second = await receiveInbound(
      svc.rt,
      s.spaceId,
      inbox,
      mailFrom(recipient('rare-2'), 'Encore xylophagegamma', 'Salut'),
    );
    await filePending(svc.rt, s.spaceId, true);
    t.equal(await svc.rt.redis.hexists(keys.searchOnce, 'xylophagegamma'), 0, 'moved out of s:once');
    t.equal(await svc.rt.redis.strlen(keys.searchWord('xylophagegamma')), 6, 'a posting of its two numbers');
    t.same(await threadsFound('xylophagegamma'), [second.thread_id, first.thread_id], 'both, newest first');
    t.same(await threadsFound('xylophag'), [second.thread_id, first.thread_id]);
  },
);

t.test('a sent message and a draft are found by their subject, recipient and text', async (t) => {
  const to = recipient('paul');
  const sent = await svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to,
    to_name: 'Paul Lefèvre',
    subject: 'Rendez-vous jeudi',
    text: 'Je confirme notre réunion à Lyon.',
  });
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  for (const query of ['reunion lyon', 'lefevre', to, 'rendez vous'])
    t.same(await threadsFound(query), [sent.body.thread.id], query);
  t.same((await search({ query: 'lyon' })).items[0]!.message_ids, [sent.body.message.id]);
  const draft = await svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to: recipient('brouillon'),
    subject: 'Relance',
    text: 'Un brouillon sur la zinguerie.',
    requires_approval: true,
  });
  t.equal(draft.body.status, 'draft');
  t.same(await threadsFound('zinguerie'), [draft.body.thread.id]);
});

t.test('the snippet of a text over 2 KB comes from the blob store, not the subject', async (t) => {
  const text = `${'Un long compte rendu de chantier. '.repeat(80)}La charpente est en mélèze.`;
  const sent = await svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to: recipient('long'),
    subject: 'Compte rendu',
    text,
    requires_approval: true,
  });
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  const [hit] = (await search({ query: 'meleze' })).items;
  t.equal(hit!.thread.id, sent.body.thread.id);
  t.match(hit!.snippet, /mélèze/);
});

t.test("a sender's retry (same Message-ID) is stored and indexed once", async (t) => {
  const first = mailFrom(recipient('retry'), 'Bordereau', 'Le bordereau signé.', {
    message_id_header: '<bordereau-1@ailleurs.test>',
  });
  const stored = await receiveInbound(svc.rt, s.spaceId, inbox, first);
  const records = await svc.rt.redis.strlen(spaceKeys(s.spaceId).searchDocs);
  const again = await receiveInbound(svc.rt, s.spaceId, inbox, first);
  t.equal(again.duplicate, true);
  t.equal(await svc.rt.redis.strlen(spaceKeys(s.spaceId).searchDocs), records, 'no second document');
  t.same(
    (await search({ query: 'bordereau' })).items.map((item) => item.message_ids),
    [[stored.message_id]],
  );
});

const threads: { correspondent: string; thread_id: string; message_id: string }[] = [];

t.test('newest match first, each thread once across pages, with all its matching messages', async (t) => {
  for (let i = 0; i < 5; i++) {
    const correspondent = recipient(`commande${i}`);
    threads.push({
      correspondent,
      ...(await receiveInbound(
        svc.rt,
        s.spaceId,
        inbox,
        mailFrom(correspondent, `Commande ${i}`, `Notre commande numéro ${i} de tuiles.`),
      )),
    });
  }
  // The oldest thread gets a newer matching message (by subject, same correspondent): it comes first now.
  const reply = await receiveInbound(
    svc.rt,
    s.spaceId,
    inbox,
    mailFrom(threads[0]!.correspondent, 'Re: Commande 0', 'La commande est prête.'),
  );
  t.equal(reply.thread_id, threads[0]!.thread_id);
  const pages: Item[][] = [];
  let cursor: string | undefined;
  do {
    const page = await search({ query: 'commande', limit: 2, ...(cursor ? { cursor } : {}) });
    pages.push(page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  t.same(
    pages.map((page) => page.length),
    [2, 2, 1],
  );
  const order = [0, 4, 3, 2, 1].map((i) => threads[i]!.thread_id);
  t.same(
    pages.flat().map((item) => item.thread.id),
    order,
    'newest match first, none twice',
  );
  t.same(pages[0]![0]!.message_ids, [reply.message_id, threads[0]!.message_id], 'both matching messages, newest first');
  const both = await search({ query: 'commande tuiles' });
  t.same(
    both.items.map((item) => item.thread.id),
    [4, 3, 2, 1, 0].map((i) => threads[i]!.thread_id),
    'placed by their newest message holding both words',
  );
  t.same(both.items[4]!.message_ids, [threads[0]!.message_id], 'the reply does not hold "tuiles"');
  t.same(await threadsFound('commande prete'), [threads[0]!.thread_id]);
});

t.test('inbox restriction, inbox_id and label', async (t) => {
  const second = await svc.call(s.apiKey, 'create_inbox', {
    username: 'achats',
    domain: s.domain,
    display_name: 'Achats',
  });
  t.equal(second.status, 200, JSON.stringify(second.body));
  const elsewhere = await receiveInbound(
    svc.rt,
    s.spaceId,
    { id: second.body.id, address: second.body.address },
    mailFrom(recipient('ardoise'), 'Ardoises', "Commande d'ardoises."),
  );
  const all = await threadsFound('ardoises');
  t.same(all, [elsewhere.thread_id]);
  const restricted = await svc.key(s.apiKey, {
    name: 'ventes seulement',
    permissions: ['read'],
    inbox_ids: [s.inboxId],
  });
  t.same(
    await threadsFound('ardoises', {}, restricted.apiKey),
    [],
    'a key restricted to another inbox does not see it',
  );
  t.ok((await threadsFound('commande', {}, restricted.apiKey)).length >= 5, 'but searches its own inbox');
  t.same(await threadsFound('commande', { inbox_id: second.body.id }), [elsewhere.thread_id], 'inbox_id narrows');
  const refused = await svc.call(restricted.apiKey, 'search_threads', { query: 'ardoises', inbox_id: second.body.id });
  t.equal(refused.body.error.code, 'not_found', 'an inbox outside the key');

  const labelled = threads[3]!.thread_id;
  t.equal((await svc.call(s.apiKey, 'classify_thread', { thread_id: labelled, labels: ['urgent'] })).status, 200);
  t.same(await threadsFound('commande', { label: 'urgent' }), [labelled]);
  t.same(await threadsFound('commande', { label: 'absente' }), []);
});

t.test('every refusal of search_threads', async (t) => {
  const code = async (body: unknown, key: string | null = s.apiKey) =>
    (await svc.call(key, 'search_threads', body)).body.error?.code;
  t.equal(await code({}), 'invalid_argument', 'no query');
  t.equal(await code({ query: '' }), 'invalid_argument', 'an empty query');
  t.equal(await code({ query: 'a'.repeat(201) }), 'invalid_argument', 'over 200 characters');
  const noWord = await svc.call(s.apiKey, 'search_threads', { query: '!! ? x' });
  t.match(noWord.body.error, { code: 'invalid_argument', hint: { parameter: 'query' } }, 'no word of two characters');
  t.match(noWord.body.error.message, /aucun mot/);
  t.equal(await code({ query: 'commande', limit: 0 }), 'invalid_argument');
  t.equal(await code({ query: 'commande', limit: 51 }), 'invalid_argument');
  t.equal(await code({ query: 'commande', cursor: 'abc' }), 'invalid_argument', 'a forged cursor');
  const { next_cursor } = await search({ query: 'commande', limit: 1 });
  t.equal(await code({ query: 'tuiles', cursor: next_cursor }), 'invalid_argument', "another query's cursor");
  t.equal(await code({ query: 'commande', unknown: 1 }), 'invalid_argument', 'an unknown parameter');
  t.equal(await code({ query: 'commande', inbox_id: 'inb_nope' }), 'invalid_argument', 'not an inbox id');
  const sendOnly = await svc.key(s.apiKey, { name: 'envoi', permissions: ['send'] });
  t.equal(await code({ query: 'commande' }, sendOnly.apiKey), 'forbidden');
  t.equal(await code({ query: 'commande' }, null), 'unauthorized');
  const stranger = await svc.space();
  t.equal(
    await code({ query: 'commande', inbox_id: s.inboxId }, stranger.apiKey),
    'not_found',
    "search_threads: another space's inbox",
  );
  t.same(await threadsFound('commande', {}, stranger.apiKey), [], 'another space finds nothing of this one');
});

t.test('the index is erased with the space', async (t) => {
  const human = recipient('humain');
  const space = await sender(svc, { human });
  await receiveInbound(
    svc.rt,
    space.spaceId,
    { id: space.inboxId, address: space.address },
    mailFrom(recipient('adieu'), 'Dernier message', 'Avant la fermeture.'),
  );
  await receiveInbound(
    svc.rt,
    space.spaceId,
    { id: space.inboxId, address: space.address },
    mailFrom(recipient('adieu'), 'Vraiment le dernier', 'La fermeture, encore.'),
  );
  const keys = spaceKeys(space.spaceId);
  await filePending(svc.rt, space.spaceId, true);
  // One more, whose entry waits to be filed.
  await receiveInbound(
    svc.rt,
    space.spaceId,
    { id: space.inboxId, address: space.address },
    mailFrom(recipient('adieu'), 'Post-scriptum', 'Oubli.'),
  );
  // A word of two documents has its own posting; the words of one, fields of s:once.
  const indexed = async () =>
    await svc.rt.redis.exists(
      keys.searchDocs,
      keys.searchWords,
      keys.searchOnce,
      keys.searchWord('fermeture'),
      keys.searchInbox(space.inboxId),
      keys.searchPending,
    );
  t.equal(await indexed(), 6);
  await svc.call(space.apiKey, 'close_space', {});
  const confirmed = await svc.call(space.apiKey, 'close_space', { confirmation_code: await lastCode(svc, human) });
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
  clock.advance(ERASURE_DELAY_MS);
  t.equal(await eraseSpace(svc.rt, space.spaceId, Date.parse(confirmed.body.closes_at)), true);
  t.equal(await indexed(), 0, 'nothing of the index is left');
});

t.test('a corrected draft is found by its new words, once', async (t) => {
  const draft = await svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to: recipient('corrige'),
    subject: 'Premier jet',
    text: 'Parlons de gouttières.',
    requires_approval: true,
  });
  t.equal(draft.body.status, 'draft');
  const id = draft.body.message.id;
  const updated = await svc.call(s.apiKey, 'update_draft', { message_id: id, text: 'Parlons de lucarnes.' });
  t.equal(updated.status, 200, JSON.stringify(updated.body));
  t.same(
    (await search({ query: 'lucarnes' })).items.map((item) => item.message_ids),
    [[id]],
  );
  t.same(
    (await search({ query: 'jet' })).items.map((item) => item.message_ids),
    [[id]],
    'one id for both versions',
  );
  t.same(await threadsFound('gouttieres'), [draft.body.thread.id], 'the first words still find it');
});
