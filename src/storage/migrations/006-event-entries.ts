/**
 * A space's events are stream entries of one field `p`, the packed event (actors/events.ts); entries
 * written before were five fields `i t m s d`, or one field `e`, the envelope JSON. Stream entries cannot
 * be rewritten in place: a stream holding older entries is written again, every entry at its own
 * position, beside it (eventsRewrite), then renamed over it in one transaction, and the webhook group
 * made again. The group's entries delivered but not acknowledged are delivered again (webhooks are at
 * least once: a receiver knows an event by its id).
 */
import { packedEntry } from '../../../actors/events.js';
import { WEBHOOK_GROUP } from '../../../actors/webhook-index.js';
import { spaceKeys } from '../../redis/keys.js';
import type { Runtime } from '../../runtime.js';
import { eachSpace, type Migration } from './steps.js';

type Entry = [id: string, fields: string[]];

const PAGE = 1000;

async function entriesOf(rt: Runtime, key: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  let from = '-';
  for (;;) {
    const page = (await rt.redis.xrange(key, from, '+', 'COUNT', PAGE)) as Entry[];
    entries.push(...page);
    if (page.length < PAGE) return entries;
    from = `(${page[page.length - 1]![0]}`;
  }
}

/** The position just before `id` (`<ms>-<seq>`): a group made there delivers `id` next. */
function positionBefore(id: string): string {
  const [ms, seq] = id.split('-').map(BigInt) as [bigint, bigint];
  return seq > 0n ? `${ms}-${seq - 1n}` : `${ms - 1n}-18446744073709551615`;
}

/** Where the webhook group of the stream is to be made again: null without one. */
async function groupPosition(rt: Runtime, key: string): Promise<string | null> {
  const groups = (await rt.redis.xinfo('GROUPS', key)) as unknown[][];
  const group = groups
    .map((fields) => Object.fromEntries(fields.flatMap((v, i) => (i % 2 ? [] : [[v, fields[i + 1]]]))))
    .find((g) => g.name === WEBHOOK_GROUP);
  if (!group) return null;
  if (!Number(group.pending)) return String(group['last-delivered-id']);
  const [, oldest] = (await rt.redis.xpending(key, WEBHOOK_GROUP)) as [number, string, string, unknown];
  return positionBefore(oldest);
}

async function rewriteEvents(rt: Runtime): Promise<number> {
  let rewritten = 0;
  await eachSpace(rt, async (spaceId) => {
    const keys = spaceKeys(spaceId);
    const entries = await entriesOf(rt, keys.events);
    const packed = entries.map(([, fields]) => packedEntry(fields));
    const older = packed.filter(Boolean).length;
    if (!older) return;
    const group = await groupPosition(rt, keys.events);
    const write = rt.redis.multi().del(keys.eventsRewrite);
    entries.forEach(([id, fields], i) => write.xadd(keys.eventsRewrite, id, ...(packed[i] ?? fields)));
    write.rename(keys.eventsRewrite, keys.events);
    if (group) write.xgroup('CREATE', keys.events, WEBHOOK_GROUP, group);
    const failed = (await write.exec())?.find(([error]) => error);
    if (failed) throw failed[0]!;
    rewritten += older;
  });
  return rewritten;
}

export const eventEntries: Migration = { name: 'event-entries', run: rewriteEvents };
