/**
 * Drafts: messages held for a human's approval (send_email or reply_to_thread with requires_approval,
 * or a space that imposes it). They are read (list_drafts), corrected (update_draft: a new revision) and
 * approved (approve_message: the revision read, then a departure slot as any new message). Cancelling
 * is in actors/waiting.ts.
 */
import type { Runtime } from '../src/runtime.js';
import { blobSetMember } from '../src/blobs/store.js';
import { spaceKeys } from '../src/redis/keys.js';
import { iso } from '../src/clock.js';
import { MailboxError } from '../src/errors.js';
import { wakeDeparture } from './due-index.js';
import { threadSnippet } from '../src/mail/content.js';
import { visibleInbox } from './inbox.js';
import * as messageLua from './bindings/message.generated.js';
import { lineArgs, prepareLine } from './journal.js';
import {
  copyAddresses,
  departurePlan,
  figuresView,
  judgeRecipients,
  messageEvent,
  messageViews,
  recipientsOf,
  sendingFacts,
  visibleMessage,
} from './message.js';
import { readMessages, storedMessage, textOnly, withBodies, type StoredMessage } from './stored-records.js';
import { attachmentsOf, sameFiles, storeBodies, storeOutgoingFiles, type OutgoingFile } from './attachments.js';
import type { InboxView, MessageView } from '../src/record-schemas.js';
import { actorOf, type Access } from './space.js';
import { messageRefs, untilFresh } from './waiting.js';
import { copiesOf, distinctCopies, storedCopies, type Mailbox } from '../src/sending/recipients.js';
import { afterIndexing, indexing } from './search.js';

/** What update_draft may change; `html: ''` removes the HTML version. */
export interface DraftChanges {
  subject?: string;
  text?: string;
  html?: string;
  /** The draft's new files (checked, actors/attachments.ts): they replace its list. */
  attachments?: OutgoingFile[];
  /** New lists of copies (src/sending/recipients.ts): each given one replaces the draft's. */
  cc?: Mailbox[];
  bcc?: Mailbox[];
}

/**
 * The stored copies a correction writes, judged as a send judges them (filters, dead addresses, the
 * test rule; the suppression list at approval): none when the correction leaves the copies alone.
 */
async function correctedCopies(
  rt: Runtime,
  access: Access,
  draft: StoredMessage,
  given: Pick<DraftChanges, 'cc' | 'bcc'>,
) {
  if (!given.cc && !given.bcc) return {};
  const copies = distinctCopies(
    { address: draft.to, name: null },
    given.cc ?? copiesOf(draft.cc),
    given.bcc ?? copiesOf(draft.bcc),
  );
  const recipients = recipientsOf({ to: draft.to, ...copies });
  judgeRecipients(
    access.space,
    recipients,
    draft.test === '1',
    await sendingFacts(rt, access, draft.inbox_id, recipients),
  );
  return { cc: storedCopies(copies.cc), bcc: storedCopies(copies.bcc) };
}

/** Writes the fields that differ from the draft as it is; nothing differs: nothing written, same revision. */
export async function updateDraft(
  rt: Runtime,
  access: Access,
  messageId: string,
  { attachments: files, cc, bcc, ...texts }: DraftChanges,
): Promise<StoredMessage> {
  const keys = spaceKeys(access.space.id);
  const first = await visibleMessage(rt, access, messageId);
  if (first.status !== 'draft') throw new MailboxError('not_draft');
  const given = { ...texts, ...(await correctedCopies(rt, access, first, { cc, bcc })) };
  // Durable before the script points to them; the same bytes are the same blob, whatever the retries.
  const views = files && (await storeOutgoingFiles(rt, access.space.id, files));
  const changes = { ...given, ...(views ? { attachments: views.length ? JSON.stringify(views) : '' } : {}) };
  const reply = await untilFresh(
    rt,
    access.space.id,
    first,
    async (m): Promise<messageLua.UpdateDraftReply | { message: StoredMessage }> => {
      if (m.status !== 'draft') throw new MailboxError('not_draft');
      const changed = Object.fromEntries(
        Object.entries(changes).filter(
          ([field, value]) =>
            value !== undefined &&
            (field === 'attachments'
              ? !sameFiles(attachmentsOf(m), views!)
              : m[field as keyof StoredMessage] !== value),
        ),
      );
      if (!Object.keys(changed).length) return { message: m };
      // The line says what changed, never the text itself: the draft shows it.
      const line = prepareLine(rt, 'draft.updated', actorOf(access), messageRefs(m), {
        subject: changed.subject ?? m.subject,
        changed: Object.keys(changed),
        html_removed: changed.html === '',
        revision: String(Number(m.revision) + 1),
      });
      // What the hash keeps: a body over 2 KB goes to the blob store, and body_blobs names both bodies' places.
      const written: Record<string, string> = { ...changed };
      const shas = changed.attachments !== undefined ? views!.map((view) => view.sha256) : [];
      if (changed.text !== undefined || changed.html !== undefined) {
        const bodies = await storeBodies(rt, access.space.id, {
          text: changed.text ?? m.text,
          html: changed.html ?? m.html,
        });
        if (changed.text !== undefined) written.text = bodies.text;
        if (changed.html !== undefined) written.html = bodies.html;
        written.body_blobs = bodies.body_blobs;
        shas.push(...bodies.shas);
      }
      const reindex = changed.subject !== undefined || changed.text !== undefined;
      // A new subject alone indexes the draft's text too, read back from the blob store when it lives there.
      const indexedText =
        changed.text ??
        (reindex ? (await withBodies(rt, access.space.id, [textOnly(m.text, m.body_blobs)]))[0]!.text : '');
      const search = indexing(access.space.id, m.inbox_id, m.thread_id, {
        subject: changed.subject ?? m.subject,
        address: recipientsOf({ to: m.to, cc: copiesOf(m.cc), bcc: copiesOf(m.bcc) }).join(' '),
        name: m.to_name,
        text: indexedText,
      });
      return messageLua.updateDraft(
        rt.scripts,
        {
          message: keys.message(m.id),
          thread: keys.thread(m.thread_id),
          journal: keys.journal,
          journalIndex: keys.journalIndex,
          blobs: keys.blobs,
          ...search.keys,
          threadMessages: keys.threadMessages(m.thread_id),
        },
        {
          revision: m.revision,
          changes: JSON.stringify(written),
          ...lineArgs(line),
          blobs: shas.map(blobSetMember).join(' '),
          reindex,
          indexed: reindex ? search.indexed : '',
          messageId: m.id,
          snippet: changed.text !== undefined ? threadSnippet(changed.text) : '',
        },
      );
    },
  );
  if ('pending' in reply) afterIndexing(rt, access.space.id, reply.pending);
  return (await withBodies(rt, access.space.id, [storedMessage(messageId, reply.message)]))[0]!;
}

export interface Approval {
  message: MessageView;
  estimated_send_at: string;
  inbox: InboxView;
}

/**
 * Draft -> queued, for the revision the approver read. Everything a send judges from the state of the
 * inbox, its domain, the plan and the suppression list is judged again: it may have changed since.
 */
export async function approveMessage(
  rt: Runtime,
  access: Access,
  messageId: string,
  revision: string,
): Promise<Approval> {
  const space = access.space;
  const keys = spaceKeys(space.id);
  const draft = await visibleMessage(rt, access, messageId);
  // Before the inbox is read: the draft of a deleted inbox was cancelled, and is `not_draft`, not `not_found`.
  if (draft.status !== 'draft') throw new MailboxError('not_draft');
  // The event below is built from this read: it must be the revision approved (the script checks it is still current).
  if (draft.revision !== revision) throw new MailboxError('revision_mismatch', { revision: draft.revision });
  const copies = { cc: copiesOf(draft.cc), bcc: copiesOf(draft.bcc) };
  const recipients = recipientsOf({ to: draft.to, ...copies });
  const facts = await sendingFacts(rt, access, draft.inbox_id, recipients);
  const thirdParty = judgeRecipients(space, recipients, draft.test === '1', facts);
  const inbox = facts.inbox;
  const earliest = Math.max(rt.clock.now(), draft.send_after ? Date.parse(draft.send_after) : 0);
  const request = {
    revision,
    third_party: thirdParty,
    recipients: recipients.join(' '),
    // The thread's correspondent may have written since the draft: the script picks the plan that applies.
    ...departurePlan(rt, space.plan, inbox, earliest, true),
  };
  const line = prepareLine(rt, 'draft.approved', actorOf(access), messageRefs(draft), {
    to: draft.to,
    ...copyAddresses(copies),
    subject: draft.subject,
    revision,
  });
  const event = messageEvent(rt, space.id, 'mail.message.queued', draft);
  const reply = await messageLua.approveMessage(
    rt.scripts,
    {
      space: keys.space,
      inbox: keys.inbox(inbox.id),
      domain: keys.domain(inbox.domain),
      message: keys.message(draft.id),
      thread: keys.thread(draft.thread_id),
      drafts: keys.drafts,
      inboxDrafts: keys.inboxDrafts(inbox.id),
      queue: keys.queue,
      inboxQueue: keys.inboxQueue(inbox.id),
      inboxSlots: keys.inboxSlots(inbox.id),
      suppressions: keys.suppressions,
      events: keys.events,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    { request: JSON.stringify(request), ...lineArgs(line), event, messageId: draft.id },
  );
  if (reply.wake) await wakeDeparture(rt, space.id, inbox.id, reply.slot);
  return {
    message: (
      await messageViews(rt, space.id, await withBodies(rt, space.id, [storedMessage(draft.id, reply.message)]))
    )[0]!,
    estimated_send_at: iso(reply.slot),
    inbox: figuresView(rt, space.plan, inbox, reply.inbox),
  };
}

export interface DraftPage {
  items: StoredMessage[];
  /** The last id of the page when older drafts remain. */
  next: string | null;
}

/**
 * Drafts newest first (ids are time-ordered: a page is a lexicographic range below the last id seen).
 * One inbox's set, the space's, or for a key restricted to inboxes the merge of its inboxes' sets.
 */
export async function listDrafts(
  rt: Runtime,
  access: Access,
  inboxId: string | null,
  before: string | null,
  limit: number,
): Promise<DraftPage> {
  const keys = spaceKeys(access.space.id);
  if (inboxId) await visibleInbox(rt, access, inboxId, { live: false });
  const own = access.key.inbox_ids;
  const sets = inboxId ? [keys.inboxDrafts(inboxId)] : own ? own.map((id) => keys.inboxDrafts(id)) : [keys.drafts];
  const max = before ? `(${before}` : '+';
  const pages = await Promise.all(sets.map((set) => rt.redis.zrevrangebylex(set, max, '-', 'LIMIT', 0, limit + 1)));
  const ids = pages
    .flat()
    .sort()
    .reverse()
    .slice(0, limit + 1);
  const page = ids.slice(0, limit);
  if (!page.length) return { items: [], next: null };
  // A draft approved or cancelled between the two reads is left out of this page.
  const items = (await readMessages(rt, access.space.id, page)).filter((m) => m.status === 'draft');
  return { items, next: ids.length > limit ? page[page.length - 1]! : null };
}
