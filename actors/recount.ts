/**
 * The operator's repair of an inbox's counters (`mailbox admin recount`): `queued`, `drafts` and the
 * day reservations in its slots, recounted from its queue, drafts and queued messages
 * (lua/inbox/recountInbox). For counters a bug left wrong; the behaviours keep them right otherwise.
 */
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import type { Runtime } from '../src/runtime.js';
import { parisDay } from '../src/texts.js';
import * as inboxLua from './bindings/inbox.generated.js';

/** An inbox's counters, before or after the repair: its reserved departures per Paris day from today on in `slots`. */
type Recounted = Exclude<inboxLua.RecountInboxReply, { moved: true }>;

/** A queue that moves under every read (a busy inbox) is read again; this many times at most. */
const READS = 5;

export async function recountInbox(rt: Runtime, spaceId: string, inboxId: string): Promise<Recounted> {
  const keys = spaceKeys(spaceId);
  for (let read = 0; read < READS; read++) {
    const queue = await rt.redis.zrange(keys.inboxQueue(inboxId), '0', '-1', 'WITHSCORES');
    const pipeline = rt.redis.pipeline();
    for (let i = 0; i < queue.length; i += 2) pipeline.hget(keys.message(queue[i]!), 'attempts');
    const attempts = await execAll<string | null>(pipeline);
    // A message attempted before is queued again for a retry: its day's unit went with its first departure.
    const reserved = attempts.flatMap((count, i) => {
      const [id, score] = [queue[2 * i]!, queue[2 * i + 1]!];
      return Number(count ?? 0) === 0 ? [[id, score, parisDay(Number(score))]] : [];
    });
    const reply = await inboxLua.recountInbox(
      rt.scripts,
      {
        inbox: keys.inbox(inboxId),
        inboxQueue: keys.inboxQueue(inboxId),
        inboxDrafts: keys.inboxDrafts(inboxId),
        inboxSlots: keys.inboxSlots(inboxId),
      },
      { today: parisDay(rt.clock.now()), queued: attempts.length, reserved: JSON.stringify(reserved) },
    );
    if (!('moved' in reply)) return reply;
  }
  throw new Error(`the queue of ${inboxId} moved under each of ${READS} reads: run recount again`);
}
