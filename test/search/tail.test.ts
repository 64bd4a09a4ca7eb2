/**
 * search_threads reads each posting's newest numbers first (SEARCH_TAIL_POSTINGS); whether a shown
 * thread's older messages match is asked of Redis one by one (lua/search/findDocs-0.lua), and the
 * postings are read whole only when a page's walk needs older documents or there are too many to ask:
 * the answers are the same as from the whole postings, page after page, for every kind of query (one
 * word, two, a prefix, an inbox), threads spread over time.
 */
import t from 'tap';
import { receiveInbound } from '../../actors/inbound.js';
import { searchThreads, type SearchRequest } from '../../actors/search.js';
import { queryTerms } from '../../src/mail/words.js';
import { registry } from '../../src/metrics.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';
import * as searchLua from '../../actors/bindings/search.generated.js';
import { receivedMail } from '../helpers/mail.js';

const clock = mondayMorning();
// Three numbers a posting at first: nearly every query here needs the second, whole read.
const svc = await startService({
  clock,
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', SEARCH_TAIL_POSTINGS: '3' },
});
const s = await sender(svc);
const inbox = { id: s.inboxId, address: s.address };
const whole = { ...svc.rt, config: { ...svc.rt.config, searchTailPostings: Number.MAX_SAFE_INTEGER } };

const receive = (from: string, subject: string, text: string) =>
  receiveInbound(
    svc.rt,
    s.spaceId,
    inbox,
    receivedMail({
      from,
      subject,
      text,
    }),
  );

// 8 correspondents, each a thread; 40 messages in turn, so each thread's messages are spread over the index.
const WORDS = ['tuiles', 'ardoise', 'zinc', 'chevrons', 'gouttière'];
const clients = Array.from({ length: 8 }, (_, i) => recipient(`client${i}`));
for (let i = 0; i < 40; i++) {
  const who = clients[i % 8]!;
  await receive(who, `Chantier ${i % 8}`, `commande ${WORDS[i % 5]} ${WORDS[(i * 3) % 5]} lot${i % 3}`);
}

/** Every page of a query, as [thread id, message ids] per hit. */
async function pages(rt: typeof svc.rt, query: string, extra: Partial<SearchRequest> = {}) {
  const out: [string, string[]][][] = [];
  let before: number | null = null;
  do {
    const page = await searchThreads(rt, s.spaceId, {
      terms: queryTerms(query)!,
      inboxIds: null,
      label: null,
      before,
      limit: 3,
      ...extra,
    });
    out.push(page.hits.map((hit) => [hit.thread.id, hit.message_ids]));
    before = page.next;
  } while (before !== null);
  return out;
}

t.test("the answers from the postings' newest numbers are those from the whole postings", async (t) => {
  for (const query of [
    'commande',
    'tuiles',
    'zinc ardoise',
    'commande lot1',
    'chev',
    'lot',
    'gouttiere tuiles',
    'absent',
  ]) {
    const expected = await pages(whole, query);
    t.same(await pages(svc.rt, query), expected, query);
  }
  t.same(
    await pages(svc.rt, 'commande', { inboxIds: [s.inboxId] }),
    await pages(whole, 'commande', { inboxIds: [s.inboxId] }),
    'an inbox restriction',
  );
  const all = (await pages(whole, 'commande')).flat();
  t.equal(all.length, 8, 'every thread once');
  t.equal(all[0]![1].length, 5, 'with all its matching messages');
});

/** How many times the script asking postings about single documents has run in this process. */
async function findDocsRuns(): Promise<number> {
  const text = await registry.getSingleMetricAsString('mailbox_redis_duration_seconds');
  return Number(/^mailbox_redis_duration_seconds_count\{operation="search\/findDocs"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

t.test(
  "a shown thread's older messages are asked about one by one, up to a bound, then the postings are read whole",
  async (t) => {
    // A thread whose messages lie below the two numbers read of each posting, then another thread's match:
    // a page of one shows the first thread and stops at the second without walking below what was read.
    const tail = (rt: typeof svc.rt) => ({ ...rt, config: { ...rt.config, searchTailPostings: 2 } });
    const thread = async (word: string, older: number) => {
      const who = recipient(`${word}-fil`);
      for (let i = 0; i < older; i++) await receive(who, `Fil ${word}`, i % 2 ? `${word} devis ${i}` : `relance ${i}`);
      await receive(recipient(`${word}-autre`), `Autre ${word}`, `${word} devis`);
      await receive(who, `Fil ${word}`, `${word} devis final`);
    };
    for (const [word, older, asked] of [
      ['charpente', 6, 1],
      ['plancher', 1030, 0],
    ] as const) {
      await thread(word, older);
      const runs = await findDocsRuns();
      const expected = await pages(whole, `${word} devis`, { limit: 1 });
      t.same(await pages(tail(svc.rt), `${word} devis`, { limit: 1 }), expected, `${word}: the same answers`);
      t.equal(
        expected[0]![0]![1].length,
        Math.min(1 + older / 2, 50),
        `${word}: the thread with its older matching messages (at most 50)`,
      );
      t.equal(
        (await findDocsRuns()) - runs >= asked,
        true,
        `${word}: asked of Redis ${asked ? 'first' : 'never: too many to ask'}`,
      );
      if (!asked) t.equal((await findDocsRuns()) - runs, 0);
    }
  },
);

t.test(
  'findDocs: which documents a posting holds, in a posting long enough to be narrowed first, and in none',
  async (t) => {
    const keys = spaceKeys(s.spaceId);
    const numbers = Array.from({ length: 5_000 }, (_, i) => i * 3 + 1);
    const bytes = Buffer.alloc(numbers.length * 3);
    numbers.forEach((number, i) => bytes.writeUIntBE(number, i * 3, 3));
    await svc.rt.redis.set(keys.searchWord('essai-findocs'), bytes);
    const asked = [1, 4, 2, 7_000, 7_001, 14_998, 14_999, 0, 20_000, 16_777_215];
    const { held } = await searchLua.findDocs(
      svc.rt.scripts,
      { postings: [keys.searchWord('essai-findocs'), keys.searchWord('absent-findocs')] },
      { documents: [asked.join(' '), '4 5'] },
    );
    t.same(held, [asked.map((doc) => (numbers.includes(doc) ? '1' : '0')).join(''), '00']);
    t.equal(held[0], '1101010000', 'the first and last numbers, one in the middle; none between or beyond');
  },
);
