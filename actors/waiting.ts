/**
 * Messages that wait to leave (drafts and queued messages): cancelling them, for cancel_message and for
 * delete_inbox, and what the draft behaviours of actors/draft.ts share. Apart from actors/message.ts
 * because the Inbox actor cancels an inbox's messages; the records both read are in actors/stored-records.ts.
 */
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { MailboxError } from '../src/errors.js';
import { parisDay } from '../src/texts.js';
import * as messageLua from './bindings/message.generated.js';
import { lineArgs, prepareLine, type Actor, type JournalRefs } from './journal.js';
import { readMessage, readMessages, storedMessage, withBodies, type StoredMessage } from './stored-records.js';

/** The objects a message's journal line touches. */
export const messageRefs = (message: StoredMessage): JournalRefs => ({
  inbox_id: message.inbox_id,
  thread_id: message.thread_id,
  message_id: message.id,
  contact: message.to,
});

/** A script that checks the caller's read of a message answers this when the message moved since. */
export type Stale = { stale: true };

/** Concurrent changes of one message are rare: a few fresh reads settle them. */
const FRESH_ATTEMPTS = 5;

/**
 * Runs a script that needs facts from a read of the message (the day of its slot, its revision) and
 * checks them: while it answers `stale`, reads the message again and retries with the new read.
 */
export async function untilFresh<R extends object>(
  rt: Runtime,
  spaceId: string,
  message: StoredMessage,
  attempt: (message: StoredMessage) => Promise<R>,
): Promise<Exclude<R, Stale>> {
  let current = message;
  for (let i = 0; i < FRESH_ATTEMPTS; i++) {
    const reply = await attempt(current);
    if (!('stale' in reply)) return reply as Exclude<R, Stale>;
    const again = await readMessage(rt, spaceId, message.id);
    if (!again) throw new MailboxError('not_found', null, { reason: "Ce message n'existe pas pour cette clé." });
    current = again;
  }
  throw new MailboxError('internal');
}

/** Draft or queued -> cancelled; anything else is `not_cancellable`. Returns the message's fields after. */
export async function cancelMessage(
  rt: Runtime,
  spaceId: string,
  actor: Actor,
  message: StoredMessage,
  why: { inboxDeleted: boolean },
): Promise<StoredMessage> {
  const keys = spaceKeys(spaceId);
  const reply = await untilFresh(rt, spaceId, message, (m) => {
    const line = prepareLine(rt, 'message.cancelled', actor, messageRefs(m), {
      to: m.to,
      subject: m.subject,
      was: m.status,
      inbox_deleted: why.inboxDeleted,
    });
    return messageLua.cancelMessage(
      rt.scripts,
      {
        message: keys.message(m.id),
        inbox: keys.inbox(m.inbox_id),
        drafts: keys.drafts,
        inboxDrafts: keys.inboxDrafts(m.inbox_id),
        queue: keys.queue,
        inboxQueue: keys.inboxQueue(m.inbox_id),
        inboxSlots: keys.inboxSlots(m.inbox_id),
        inboxRecipients: keys.inboxRecipients(m.inbox_id),
        thread: keys.thread(m.thread_id),
        journal: keys.journal,
        journalIndex: keys.journalIndex,
      },
      // The day is the Paris day whose reservation the slot took (lua/includes/commitSlot.lua); Lua has no time zones.
      {
        slot: m.slot,
        day: m.slot ? parisDay(Number(m.slot)) : '',
        ...lineArgs(line),
        spacing: rt.config.spacingSeconds * 1000,
        messageId: m.id,
      },
    );
  });
  return (await withBodies(rt, spaceId, [storedMessage(message.id, reply.message)]))[0]!;
}

/**
 * Cancels every draft and queued message of an inbox (delete_inbox, once the inbox is marked deleted so
 * no new one can join). A message that left or was cancelled meanwhile is skipped, so a second run
 * counts nothing twice. Returns how many were cancelled by this run.
 */
export async function cancelInboxMessages(
  rt: Runtime,
  spaceId: string,
  actor: Actor,
  inboxId: string,
): Promise<number> {
  const keys = spaceKeys(spaceId);
  const [drafts, queued] = await Promise.all([
    rt.redis.zrange(keys.inboxDrafts(inboxId), '0', '-1'),
    rt.redis.zrange(keys.inboxQueue(inboxId), '0', '-1'),
  ]);
  const ids = [...drafts, ...queued];
  if (!ids.length) return 0;
  const messages = await readMessages(rt, spaceId, ids);
  const outcomes = await Promise.all(
    messages.map((message) =>
      cancelMessage(rt, spaceId, actor, message, { inboxDeleted: true }).then(
        () => 1,
        (error: unknown) => {
          if (error instanceof MailboxError && error.code === 'not_cancellable') return 0;
          throw error;
        },
      ),
    ),
  );
  return outcomes.reduce((sum, n) => sum + n, 0);
}
