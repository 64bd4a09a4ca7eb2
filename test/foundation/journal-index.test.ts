/**
 * The journal index's lists (lua/includes/journalIndexAdd.lua): buckets of 64 line id bodies in one
 * hash, read newest first by lua/journal/readIndex-1.lua. Held against a sorted array: lines written in
 * order and late (drawn before a bucket was sealed, written after), some dropped (space/dropCode),
 * every page read by every kind of bound a reader gives.
 */
import t from 'tap';
import { encodeTime, ALPHABET } from '../../src/ids.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { Scripts } from '../../src/redis/scripts.js';
import * as journalLua from '../../actors/bindings/journal.generated.js';
import * as spaceLua from '../../actors/bindings/space.generated.js';
import { testRedis } from '../helpers/redis.js';

const redis = await testRedis();
const scripts = new Scripts(redis);
const START = Date.parse('2026-11-27T08:00:00.000Z');
let seed = 7;
/** A repeatable draw in [0, n) (mulberry32). */
const draw = (n: number): number => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) % n;
};
const body = (ms: number): string => encodeTime(ms) + Array.from({ length: 10 }, () => ALPHABET[draw(32)]).join('');

async function space(name: string) {
  const keys = spaceKeys(`spc_${name.padEnd(20, '0')}`);
  await redis.hset(keys.space, 'id', name);
  const write = (lineBody: string, refs: string[]) =>
    spaceLua.appendLine(
      scripts,
      { space: keys.space, journal: keys.journal, journalIndex: keys.journalIndex },
      { lineId: `log_${lineBody}`, lineJson: '{"kind":"test"}', lineRefs: JSON.stringify(refs) },
    );
  const drop = (lineBody: string, refs: string[]) =>
    spaceLua.dropCode(
      scripts,
      { code: keys.code('verify'), codeSends: keys.codeSends, journal: keys.journal, journalIndex: keys.journalIndex },
      { salt: '', lineId: `log_${lineBody}`, lineRefs: JSON.stringify(refs) },
    );
  const page = async (prefix: string, below: string, from: string, count: number): Promise<string[]> => {
    const { bodies } = await journalLua.readIndex(
      scripts,
      { journalIndex: keys.journalIndex },
      { prefix, below, from, count },
    );
    return bodies.match(/.{20}/g) ?? [];
  };
  return { keys, write, drop, page };
}

t.test('pages of every bound equal those of a sorted list, across sealed buckets and late lines', async (t) => {
  const s = await space('journalindex1');
  const model: string[] = [];
  let now = START;
  for (let i = 0; i < 700; i++) {
    now += 1 + draw(5);
    // One line in eight was drawn up to 300 ms earlier (another front end's clock, a slow call).
    const lineBody = body(draw(8) === 0 ? now - draw(300) : now);
    await s.write(lineBody, ['inb_aaaaaaaaaaaaaaaaaaaa']);
    model.push(lineBody);
  }
  for (const gone of model.filter((_, i) => i % 37 === 0)) await s.drop(gone, ['inb_aaaaaaaaaaaaaaaaaaaa']);
  const kept = model
    .filter((_, i) => i % 37 !== 0)
    .sort()
    .reverse();
  const fields = await redis.hkeys(s.keys.journalIndex);
  t.ok(fields.filter((f) => f.startsWith('* #')).length >= 9, 'the list of every line was sealed bucket by bucket');
  const sealedSizes = await Promise.all(
    fields.filter((f) => f.startsWith('* #')).map((f) => redis.hstrlen(s.keys.journalIndex, f)),
  );
  t.ok(
    sealedSizes.some((size) => size > 20 + 64 * 20),
    'late lines were filed in sealed buckets',
  );

  for (const prefix of ['* ', 'inb_aaaaaaaaaaaaaaaaaaaa']) {
    t.same(await s.page(prefix, '', '', 10_000), kept, `${prefix}: whole, newest first, in order`);
    // Pages by cursor: each page starts below the previous one's last body.
    const walked: string[] = [];
    let below = '';
    for (;;) {
      const got = await s.page(prefix, below, '', 50);
      walked.push(...got);
      if (got.length < 50) break;
      below = got[got.length - 1]!;
    }
    t.same(walked, kept, `${prefix}: paged by 50`);
  }
  // Time bounds (a Paris day's): an upper bound excluded, a lower one included, both the start of a body.
  for (let probe = 0; probe < 40; probe++) {
    const to = START + draw(4000);
    const from = to - draw(2000);
    const count = 1 + draw(120);
    const expected = kept.filter((b) => b < encodeTime(to) && b >= encodeTime(from)).slice(0, count);
    t.same(await s.page('* ', encodeTime(to), encodeTime(from), count), expected, `[${from}, ${to}) by ${count}`);
  }
  t.same(await s.page('c:nobody@exemple.fr ', '', '', 10), [], 'a list never written reads empty');
});

t.test('the only line of a list dropped leaves no field; a list in another space is apart', async (t) => {
  const a = await space('journalindex2');
  const b = await space('journalindex3');
  const only = body(START);
  await a.write(only, ['c:alice@exemple.fr ']);
  await b.write(body(START + 1), ['c:alice@exemple.fr ']);
  t.same(await a.page('c:alice@exemple.fr ', '', '', 10), [only]);
  await a.drop(only, ['c:alice@exemple.fr ']);
  t.same(await redis.hkeys(a.keys.journalIndex), [], 'nothing left');
  t.equal((await b.page('c:alice@exemple.fr ', '', '', 10)).length, 1);
});

t.test('a line filed in several lists, sealed and new ones: each holds its own lines, in order', async (t) => {
  const s = await space('journalindex4');
  const lists = ['inb_bbbbbbbbbbbbbbbbbbbb', 'thr_cccccccccccccccccccc', 'c:alice@exemple.fr ', 'c:bob@exemple.fr '];
  const model = new Map<string, string[]>([['* ', []], ...lists.map((prefix): [string, string[]] => [prefix, []])]);
  let now = START;
  for (let i = 0; i < 300; i++) {
    now += 1 + draw(5);
    const lineBody = body(draw(8) === 0 ? now - draw(300) : now);
    // Every line in the inbox's list; one in three in the thread's; each in one correspondent's.
    const refs = [lists[0]!, ...(i % 3 === 0 ? [lists[1]!] : []), lists[2 + (i % 2)]!];
    await s.write(lineBody, refs);
    for (const prefix of ['* ', ...refs]) model.get(prefix)!.push(lineBody);
  }
  for (const [prefix, bodies] of model)
    t.same(await s.page(prefix, '', '', 10_000), [...bodies].sort().reverse(), `${prefix}: its ${bodies.length} lines`);
});

t.test('moves of old days (journal/moveDays): every list reads from the moved end on as a sorted list', async (t) => {
  const s = await space('journalindex5');
  const lists = ['* ', 'inb_dddddddddddddddddddd', 'c:carole@exemple.fr '];
  const model: string[] = [];
  let now = START;
  const writeSome = async (n: number) => {
    for (let i = 0; i < n; i++) {
      now += 1 + draw(5);
      const lineBody = body(draw(8) === 0 ? now - draw(300) : now);
      await s.write(lineBody, i % 4 === 0 ? lists.slice(1) : [lists[1]!]);
      model.push(lineBody);
    }
  };
  const inList = (prefix: string) =>
    model.filter((lineBody) => prefix !== lists[2] || model.indexOf(lineBody) % 4 === 0);
  await writeSome(500);
  let to: number | null = null;
  for (const cut of [START + 200, START + 700, START + 1100, START + 1101, START + 1400]) {
    const range = await s.page('* ', encodeTime(cut), to === null ? '' : encodeTime(to), 10_000);
    const moved = await journalLua.moveDays(
      scripts,
      {
        journal: s.keys.journal,
        journalIndex: s.keys.journalIndex,
        journalDays: s.keys.journalDays,
        blobs: s.keys.blobs,
      },
      {
        to: to === null ? '' : String(to),
        next: cut,
        from: to === null ? '' : encodeTime(to),
        below: encodeTime(cut),
        day: '',
        sha: '',
        bodies: range.join(''),
        prefixes: JSON.stringify(lists),
      },
    );
    t.same(moved, { moved: range.length });
    to = cut;
    await writeSome(60);
    for (const prefix of lists) {
      const expected = inList(prefix)
        .filter((lineBody) => lineBody >= encodeTime(cut))
        .sort()
        .reverse();
      t.same(await s.page(prefix, '', encodeTime(cut), 10_000), expected, `${prefix} from ${cut - START}`);
      const walked: string[] = [];
      for (let below = ''; ;) {
        const got = await s.page(prefix, below, encodeTime(cut), 30);
        walked.push(...got);
        if (got.length < 30) break;
        below = got[got.length - 1]!;
      }
      t.same(walked, expected, `${prefix} from ${cut - START}, paged by 30`);
    }
  }
  const stale = await journalLua.moveDays(
    scripts,
    {
      journal: s.keys.journal,
      journalIndex: s.keys.journalIndex,
      journalDays: s.keys.journalDays,
      blobs: s.keys.blobs,
    },
    { to: '', next: now, from: '', below: encodeTime(now), day: '', sha: '', bodies: '', prefixes: '[]' },
  );
  t.same(stale, { stale: true }, 'a move from another `to` than the stored one writes nothing');
  t.equal(await redis.hlen(s.keys.journal), model.filter((lineBody) => lineBody >= encodeTime(to!)).length);
});
