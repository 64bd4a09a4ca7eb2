/**
 * A contact's sheet beyond its audiences (get_contact): the threads the space's inboxes hold with the
 * address (the last first message each inbox wrote to it, the last thread its mail opened), the
 * space's block on it and whether it is dead for the whole platform.
 */
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import type { Runtime } from '../src/runtime.js';
import { deadAddress } from './dead-addresses.js';
import { readThreads, type StoredThread } from './stored-records.js';
import type { Access } from './space.js';

export async function contactSheet(rt: Runtime, access: Access, email: string) {
  const keys = spaceKeys(access.space.id);
  const own = access.key.inbox_ids;
  const inboxIds = (await rt.redis.zrange(keys.inboxes, '0', '-1')).filter((id) => !own || own.includes(id));
  const pipeline = rt.redis.pipeline();
  for (const id of inboxIds) pipeline.hget(keys.inboxRecipients(id), email).hget(keys.inboxContacts(id), email);
  pipeline.hget(keys.suppressions, email).hget(keys.suppressions, `@${email.split('@')[1]}`);
  const replies = await execAll<string | null>(pipeline);
  const [byAddress, byDomain] = replies.splice(-2);
  const threadIds = [...new Set(replies.filter((r): r is string => Boolean(r)).map((r) => r.split(' ')[0]!))];
  const threads = (await readThreads(rt, access.space.id, threadIds))
    .filter((thread): thread is StoredThread => thread !== null)
    .map((thread) => ({
      thread_id: thread.id,
      inbox_id: thread.inbox_id,
      subject: thread.subject,
      last_message_at: thread.last_message_at,
      campaign_id: thread.campaign_id || null,
    }))
    .sort((a, b) => (a.last_message_at < b.last_message_at ? 1 : -1));
  const block = byAddress ?? byDomain;
  const entry = block ? (JSON.parse(block) as { reason: string; created_at: string }) : null;
  return {
    threads,
    suppression: entry ? { reason: entry.reason, since: entry.created_at } : null,
    dead_address: (await deadAddress(rt, email)) !== null,
  };
}
