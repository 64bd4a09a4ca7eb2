/**
 * search_threads reads each posting's newest numbers first (SEARCH_TAIL_POSTINGS) and its postings whole
 * only when a page needs older documents: the answers are the same as from the whole postings, page
 * after page, for every kind of query (one word, two, a prefix, an inbox), threads spread over time.
 */
import t from 'tap';
import { receiveInbound } from '../../actors/inbound.js';
import { searchThreads, type SearchRequest } from '../../actors/search.js';
import { queryTerms } from '../../src/mail/words.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';

const clock = mondayMorning();
// Three numbers a posting at first: nearly every query here needs the second, whole read.
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', SEARCH_TAIL_POSTINGS: '3' } });
const s = await sender(svc);
const inbox = { id: s.inboxId, address: s.address };
const whole = { ...svc.rt, config: { ...svc.rt.config, searchTailPostings: Number.MAX_SAFE_INTEGER } };

// 8 correspondents, each a thread; 40 messages in turn, so each thread's messages are spread over the index.
const WORDS = ['tuiles', 'ardoise', 'zinc', 'chevrons', 'gouttière'];
const clients = Array.from({ length: 8 }, (_, i) => recipient(`client${i}`));
for (let i = 0; i < 40; i++) {
  const who = clients[i % 8]!;
  await receiveInbound(svc.rt, s.spaceId, inbox, {
    from: who, from_name: '', reply_to: '', subject: `Chantier ${i % 8}`, text: `commande ${WORDS[i % 5]} ${WORDS[(i * 3) % 5]} lot${i % 3}`,
    html: '', message_id_header: '', in_reply_to: '', references: [], automatic: false, auth_results: {}, attachments: [], source: null,
  });
}

/** Every page of a query, as [thread id, message ids] per hit. */
async function pages(rt: typeof svc.rt, query: string, extra: Partial<SearchRequest> = {}) {
  const out: [string, string[]][][] = [];
  let before: number | null = null;
  do {
    const page = await searchThreads(rt, s.spaceId, { terms: queryTerms(query)!, inboxIds: null, label: null, before, limit: 3, ...extra });
    out.push(page.hits.map((hit) => [hit.thread.id, hit.message_ids]));
    before = page.next;
  } while (before !== null);
  return out;
}

t.test('the answers from the postings\' newest numbers are those from the whole postings', async (t) => {
  for (const query of ['commande', 'tuiles', 'zinc ardoise', 'commande lot1', 'chev', 'lot', 'gouttiere tuiles', 'absent']) {
    const expected = await pages(whole, query);
    t.same(await pages(svc.rt, query), expected, query);
  }
  t.same(await pages(svc.rt, 'commande', { inboxIds: [s.inboxId] }), await pages(whole, 'commande', { inboxIds: [s.inboxId] }), 'an inbox restriction');
  const all = (await pages(whole, 'commande')).flat();
  t.equal(all.length, 8, 'every thread once');
  t.equal(all[0]![1].length, 5, 'with all its matching messages');
});
