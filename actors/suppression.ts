/**
 * The space's suppression list (docs/contract.md, Decision 4): addresses and domains the space no longer writes to.
 * An entry is JSON under its value in one hash, indexed newest last by "<entry id> <value>" for
 * list_suppressions; one script writes it with its journal line and event (lua/suppression/).
 * The scope is always the space: a person who unsubscribes from one inbox is left alone by all of them.
 */
import { isAddress } from '../src/sending/validate.js';
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { iso } from '../src/clock.js';
import { prepareEvent } from './events.js';
import { campaignRef } from './stored-records.js';
import * as suppressionLua from './bindings/suppression.generated.js';
import { lineArgs, prepareLine, SERVICE_ACTOR, type JournalRefs } from './journal.js';
import { actorOf, type Access } from './space.js';
import type { SuppressionEntry, SuppressionReason } from './bindings/shapes.js';

export type { SuppressionEntry, SuppressionReason };

/**
 * The message's inbox, thread and metadata, for the journal refs and the event (webhook receivers get
 * the send's metadata as is). Fields of the message hash written by actors/message.ts; a message
 * unknown here (erased) still unsubscribes, with fewer refs.
 */
async function messageRefs(rt: Runtime, spaceId: string, messageId: string) {
  const [inboxId, threadId, metadata, campaignId] = await rt.redis.hmget(
    spaceKeys(spaceId).message(messageId),
    'inbox_id',
    'thread_id',
    'metadata',
    'campaign_id',
  );
  return {
    refs: {
      message_id: messageId,
      ...(inboxId ? { inbox_id: inboxId } : {}),
      ...(threadId ? { thread_id: threadId } : {}),
      ...campaignRef({ campaign_id: campaignId ?? '' }),
    },
    metadata: metadata ? (JSON.parse(metadata) as unknown) : null,
  };
}

/**
 * The recipient of a message asked to stop (the link's POST, RFC 8058 one-click): the address is
 * blocked for the whole space, journaled (`contact.unsubscribed`) and told (`mail.contact.unsubscribed`)
 * once; asking again changes nothing and answers `created: false`. `not_found` when the space is gone.
 */
export async function unsubscribeRecipient(
  rt: Runtime,
  spaceId: string,
  messageId: string,
  recipient: string,
): Promise<{ created: boolean; entry: SuppressionEntry }> {
  const value = recipient.toLowerCase();
  const { refs, metadata } = await messageRefs(rt, spaceId, messageId);
  const entry: SuppressionEntry = {
    id: rt.ids.next('suppression'),
    value,
    kind: 'address',
    reason: 'unsubscribe',
    scope: 'space',
    source: messageId,
    created_at: iso(rt.clock.now()),
  };
  const line = prepareLine(
    rt,
    'contact.unsubscribed',
    SERVICE_ACTOR,
    { contact: value, ...refs } satisfies JournalRefs,
    { address: value },
  );
  const event = prepareEvent(
    rt,
    spaceId,
    'mail.contact.unsubscribed',
    { person: { email: value, name: null }, refs },
    {
      address: value,
      reason: 'unsubscribe',
      metadata,
    },
  );
  return suppressionLua.addSuppression(rt.scripts, addSuppressionKeys(spaceId), {
    value,
    entry: JSON.stringify(entry),
    ...lineArgs(line),
    event,
  });
}

/** lua/suppression/addSuppression's keys. */
export function addSuppressionKeys(spaceId: string) {
  const { space, suppressions, suppressionIndex, events, journal, journalIndex } = spaceKeys(spaceId);
  return { space, suppressions, suppressionIndex, events, journal, journalIndex };
}

/** `@domain` for a domain (given as `domain` or `@domain`), else the address, lowercase; null when neither. */
export function suppressionValue(raw: string): { value: string; kind: 'address' | 'domain' } | null {
  const value = raw.trim().toLowerCase();
  const domain = /^@?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})$/.exec(value);
  if (domain && !value.includes('@', 1)) return { value: `@${domain[1]}`, kind: 'domain' };
  if (isAddress(value)) return { value, kind: 'address' };
  return null;
}

/** add_suppression: a manual block by a key; `note` is the caller's words, kept as given. */
export async function addManualSuppression(
  rt: Runtime,
  access: Access,
  target: { value: string; kind: 'address' | 'domain' },
  note: string | null,
): Promise<{ created: boolean; entry: SuppressionEntry }> {
  const entry: SuppressionEntry = {
    id: rt.ids.next('suppression'),
    ...target,
    reason: 'manual',
    scope: 'space',
    source: access.key.id,
    created_at: iso(rt.clock.now()),
    note,
  };
  const refs: JournalRefs = target.kind === 'domain' ? { domain: target.value.slice(1) } : { contact: target.value };
  const line = prepareLine(rt, 'suppression.added', actorOf(access), refs, { value: target.value, note });
  return suppressionLua.addSuppression(rt.scripts, addSuppressionKeys(access.space.id), {
    value: target.value,
    entry: JSON.stringify(entry),
    ...lineArgs(line),
    event: '',
  });
}

/** remove_suppression: not_found, or suppression_locked for an unsubscription or a complaint. */
export async function removeSuppression(rt: Runtime, access: Access, value: string): Promise<SuppressionEntry> {
  const keys = spaceKeys(access.space.id);
  const refs: JournalRefs = value.startsWith('@') ? { domain: value.slice(1) } : { contact: value };
  const line = prepareLine(rt, 'suppression.removed', actorOf(access), refs, { value });
  const reply = await suppressionLua.removeSuppression(
    rt.scripts,
    {
      suppressions: keys.suppressions,
      suppressionIndex: keys.suppressionIndex,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    { value, ...lineArgs(line) },
  );
  return reply.entry;
}

/** How many index entries one list call may look at when a query filters them; then it returns a short page. */
const LIST_SCAN_CAP = 5000;
const CHUNK = 100;

/**
 * Newest first, `query` a part of the value; `before` the index entry ("<id> <value>") the previous page
 * stopped at. Returns the page and the entry to continue before, or null on the last page.
 */
export async function listSuppressions(
  rt: Runtime,
  spaceId: string,
  query: string | null,
  before: string | null,
  limit: number,
): Promise<{ items: SuppressionEntry[]; next: string | null }> {
  const keys = spaceKeys(spaceId);
  const items: SuppressionEntry[] = [];
  let max = before ? `(${before}` : '+';
  for (let scanned = 0; scanned < LIST_SCAN_CAP;) {
    const members = await rt.redis.zrevrangebylex(keys.suppressionIndex, max, '-', 'LIMIT', 0, CHUNK);
    const matched = members.filter((member) => !query || member.slice(member.indexOf(' ') + 1).includes(query));
    const values = matched.length
      ? await rt.redis.hmget(keys.suppressions, ...matched.map((m) => m.slice(m.indexOf(' ') + 1)))
      : [];
    for (let i = 0; i < matched.length; i++) {
      if (items.length === limit) return { items, next: matched[i - 1] ?? max.slice(1) };
      if (values[i]) items.push(JSON.parse(values[i]!) as SuppressionEntry);
    }
    if (members.length < CHUNK) return { items, next: null };
    scanned += members.length;
    max = `(${members[members.length - 1]}`;
  }
  return { items, next: max.slice(1) };
}
