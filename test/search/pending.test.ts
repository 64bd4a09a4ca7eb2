/**
 * The search index's pending entries (docs/architecture.md, "Search"): a stored message's words and
 * inbox are filed in their postings a batch of 32 at a time, by the store that fills the batch, off the
 * request's path; a search files whatever waits first, so a message is found as soon as it is stored;
 * two filings of the same entries at once file them once.
 */
import t from 'tap';
import { filePending } from '../../actors/search.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';

const svc = await startService({
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', SPACING_SECONDS: '0' },
});

const sendAbout = (s: Awaited<ReturnType<typeof sender>>, word: string) =>
  svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to: recipient(),
    subject: `Objet ${word}`,
    text: 'Bonjour.',
  });

const found = async (key: string, query: string): Promise<number> => {
  const res = await svc.call(key, 'search_threads', { query, limit: 50 });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.items.length;
};

/** Polls until `read` answers `want` (a filing runs after its store answered), at most 5 s. */
async function settles(read: () => Promise<number>, want: number): Promise<number> {
  const until = Date.now() + 5_000;
  let value = await read();
  while (value !== want && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}

t.test('a message is found at once: the search files the entries still pending', async (t) => {
  const s = await sender(svc);
  const pending = spaceKeys(s.spaceId).searchPending;
  t.equal((await sendAbout(s, 'xylographie')).status, 200);
  t.equal(await svc.rt.redis.llen(pending), 1, 'its entry waits');
  t.equal(await svc.rt.redis.exists(spaceKeys(s.spaceId).searchInbox(s.inboxId)), 0, 'no posting written yet');
  t.equal(await found(s.apiKey, 'xylographie'), 1, 'found');
  t.equal(await svc.rt.redis.llen(pending), 0, 'filed by the search');
});

t.test('the store that fills a batch of 32 files it; the next ones wait', async (t) => {
  const s = await sender(svc);
  const pending = spaceKeys(s.spaceId).searchPending;
  for (let i = 0; i < 33; i++) t.equal((await sendAbout(s, `lot${i} commun`)).status, 200);
  t.equal(await settles(() => svc.rt.redis.llen(pending), 1), 1, 'the first 32 filed, the 33rd waits');
  t.equal(
    await svc.rt.redis.strlen(spaceKeys(s.spaceId).searchWord('commun')),
    32 * 3,
    'the common word: one number an entry filed',
  );
  t.equal(await found(s.apiKey, 'commun'), 33, 'every message found');
  t.equal(await found(s.apiKey, 'lot32'), 1, 'the last one too');
});

t.test('two filings of the same entries at once file each entry once', async (t) => {
  const s = await sender(svc);
  for (let i = 0; i < 5; i++) t.equal((await sendAbout(s, 'concurrence')).status, 200);
  await Promise.all([filePending(svc.rt, s.spaceId, true), filePending(svc.rt, s.spaceId, true)]);
  const keys = spaceKeys(s.spaceId);
  t.equal(await svc.rt.redis.llen(keys.searchPending), 0, 'nothing left');
  t.equal(await svc.rt.redis.strlen(keys.searchWord('concurrence')), 5 * 3, 'five numbers, none twice');
  t.equal(await svc.rt.redis.strlen(keys.searchInbox(s.inboxId)), 5 * 3, 'the inbox: five numbers');
  t.equal(await found(s.apiKey, 'concurrence'), 5);
});

t.test('a word of one filed document keeps its number in s:once; its second moves it to a posting', async (t) => {
  const s = await sender(svc);
  const keys = spaceKeys(s.spaceId);
  t.equal((await sendAbout(s, 'palimpseste')).status, 200);
  await filePending(svc.rt, s.spaceId, true);
  t.equal((await svc.rt.redis.hgetBuffer(keys.searchOnce, 'palimpseste'))?.length, 3, 'its number in s:once');
  t.equal(await svc.rt.redis.exists(keys.searchWord('palimpseste')), 0, 'no key of its own');
  t.ok(await svc.rt.redis.zscore(keys.searchWords, 'palimpseste'), 'among the words completed from');
  t.equal((await sendAbout(s, 'palimpseste')).status, 200);
  t.equal((await sendAbout(s, 'palimpseste')).status, 200);
  await filePending(svc.rt, s.spaceId, true);
  t.equal(await svc.rt.redis.hexists(keys.searchOnce, 'palimpseste'), 0, 'out of s:once');
  t.equal(await svc.rt.redis.strlen(keys.searchWord('palimpseste')), 9, 'its three numbers, in order');
  t.equal(await found(s.apiKey, 'palimpseste'), 3);
  t.equal(await found(s.apiKey, 'palimp'), 3, 'completed from its prefix');
});
