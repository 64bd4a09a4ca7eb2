/**
 * Inbound mail: a message received over SMTP for an inbox becomes a stored message in a thread, with
 * its event, in one script (lua/message/receiveInbound). Threading: the Message-IDs it cites
 * (In-Reply-To, then References from the newest) against ours and the ones received before; else the
 * same subject within the same correspondent of that inbox (the inbox's last first message, last test
 * send and last thread opened by mail from it); else a new thread. A message whose From
 * gives no usable address (none, a name only, an unparseable one) has no correspondent: its thread's
 * contact is '' (shown null), it is never threaded by subject, and reply_to_thread refuses it.
 */
import type { Runtime } from '../src/runtime.js';
import { blobSetMember } from '../src/blobs/store.js';
import { spaceKeys, testRecipientField } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import { iso } from '../src/clock.js';
import { ID_BODY_CHARS, ID_PREFIXES, idPattern } from '../src/ids.js';
import { isAddress } from '../src/sending/validate.js';
import { subjectKey, threadSnippet } from '../src/mail/content.js';
import { prepareEvent } from './events.js';
import * as messageLua from './bindings/message.generated.js';
import { lineArgs, prepareLine, SERVICE_ACTOR } from './journal.js';
import {
  blankMessage,
  directionOf,
  storedAuthResults,
  blankThread,
  keepsMessageField,
  keepsThreadField,
  MESSAGE_ID_HEADER_FIELDS,
  messageIdEntry,
  messageIdHeaderOf,
  readThread,
  readThreadIds,
  readThreads,
  storedPairs,
  threadIdsIn,
  type StoredMessage,
  type StoredThread,
} from './stored-records.js';
import { afterIndexing, indexing } from './search.js';
import { storeAttachments, storeBodies, type AttachmentPart } from './attachments.js';
import type { AttachmentView, TextUnavailable } from '../src/record-schemas.js';
import { recordReply } from './campaign.js';
import { bringBack, citedInHistory, outsideHistory } from './history.js';
import { storedCopies, type Mailbox } from '../src/sending/recipients.js';

/** A received message as the SMTP side parsed it. */
export interface InboundMail {
  /** The From address as parsed, lowercase: '' or anything a header held. */
  from: string;
  from_name: string;
  reply_to: string;
  /** Every address of its To and Cc headers, as parsed (absent: none kept). */
  to_list?: Mailbox[];
  cc?: Mailbox[];
  subject: string;
  /** The text part, or the text version of an HTML-only message ('' when that could not be read: `text_unavailable`). */
  text: string;
  /** Why the text version of an HTML-only message could not be read (src/mail/extract.ts); null or absent when it was. */
  text_unavailable?: TextUnavailable | null;
  html: string;
  /** Message-ID header with its angle brackets, '' when the sender gave none. */
  message_id_header: string;
  in_reply_to: string;
  references: string[];
  automatic: boolean;
  /** SPF, DKIM, DMARC and ARC verdicts (src/smtp/parse.ts), kept as JSON on the message. */
  auth_results: Record<string, unknown>;
  /** Every attachment and inline part, with its bytes (stored in the blob store, docs/contract.md, Decision 10). */
  attachments: AttachmentPart[];
  /** The raw message as received (kept for forwarding and audit); null when the caller has none. */
  source: Buffer | null;
}

export interface Received {
  message_id: string;
  thread_id: string;
  /** The same message (same Message-ID) was already stored for this inbox: nothing new was written. */
  duplicate: boolean;
  event: 'mail.message.received' | 'mail.thread.replied' | null;
}

/** How many cited Message-IDs are looked at: the newest ones decide, a huge References list does not. */
const CITED_MAX = 20;
/** A reply that cites none of our messages answers the latest outbound one among the thread's last this many. */
const LAST_MESSAGES = 10;
/** The thread's last LAST_MESSAGES ids, newest first, from the `msgs` field's (threadIdsIn): as ZREVRANGE reads the set. */
const newestFirst = (ids: string[]): string[] => ids.reverse().slice(0, LAST_MESSAGES);
const OWN_MESSAGE_ID = new RegExp(`^<(${idPattern('message').slice(1, -1)})@[^>\\s]+>$`);

interface Answered {
  message_id: string;
  subject: string | null;
  sent_at: string | null;
  metadata: unknown;
}

/** The fields of a message that tell whether, and what, a reply answers. */
const ANSWER_FIELDS = ['status', 'subject', 'sent_at', 'metadata'] as const;

/** Whether the status an ANSWER_FIELDS read begins with is an outbound message's. */
const isOutbound = ([status]: (string | null)[]): boolean => directionOf(status) === 'outbound';

/** The answered message from its ANSWER_FIELDS; null when it is not an outbound one. */
function answerOf(id: string, fields: (string | null)[]): Answered | null {
  if (!isOutbound(fields)) return null;
  const [, subject, sentAt, metadata] = fields;
  return {
    message_id: id,
    subject: subject ?? null,
    sent_at: sentAt || null,
    metadata: metadata ? (JSON.parse(metadata) as unknown) : null,
  };
}

/** What of a message tells which thread it belongs to. */
type Cites = Pick<InboundMail, 'in_reply_to' | 'references' | 'subject' | 'automatic'>;

interface Found {
  threadId: string;
  /** The message it answers, when the lookup read it already: a cited message of ours. */
  answered?: Answered | null;
  /**
   * Otherwise, where to look for the outbound message the mail answers: the thread's last ten
   * messages when the subject lookup read them already ([] when none needs reading: an automatic
   * message, or a thread without outbound messages); null: the thread's last ten, not read yet.
   */
  answerable: string[] | null;
}

/** The thread id of a `msgids` value: `<message id body><thread id body>` (receiveInbound-16 writes it). */
const threadOfEntry = (value: string): string => `${ID_PREFIXES.thread}_${value.slice(ID_BODY_CHARS)}`;

/**
 * The thread a message belongs to, from the Message-IDs it cites, then its subject within the
 * correspondent (`contact`; '' none: not by subject). Every lookup of a step is sent at once: two
 * round trips at most.
 */
async function findThread(
  rt: Runtime,
  spaceId: string,
  inboxId: string,
  mail: Cites,
  contact: string,
): Promise<Found | null> {
  const keys = spaceKeys(spaceId);
  const cited = [...new Set([mail.in_reply_to, ...[...mail.references].reverse()].filter(Boolean))]
    .slice(0, CITED_MAX)
    .map((header) => ({ header, own: OWN_MESSAGE_ID.exec(header)?.[1] ?? null }));
  const wanted = contact ? subjectKey(mail.subject) : '';
  const reads = rt.redis.pipeline();
  for (const { header, own } of cited) {
    if (own) reads.hmget(keys.message(own), 'inbox_id', 'thread_id', ...ANSWER_FIELDS, ...MESSAGE_ID_HEADER_FIELDS);
    // Also for an id of our shape: it may be another space's (or deployment's) message this inbox received.
    reads.hget(keys.messageIds, messageIdEntry(inboxId, header));
  }
  if (wanted)
    reads
      .hmget(keys.inboxRecipients(inboxId), contact, testRecipientField(contact))
      .hget(keys.inboxContacts(inboxId), contact);
  const hits = await execAll(reads);
  let at = 0;
  for (const { header, own } of cited) {
    if (own) {
      const [inbox, thread, ...fields] = hits[at++] as (string | null)[];
      const answer = fields.slice(0, ANSWER_FIELDS.length);
      if (inbox === inboxId && thread && messageIdHeaderOf(own, fields.slice(ANSWER_FIELDS.length)) === header)
        return { threadId: thread, answered: answerOf(own, answer), answerable: [] };
    }
    const received = hits[at++] as string | null;
    if (received) return { threadId: threadOfEntry(received), answerable: null };
  }
  // A Message-ID of a thread in history: the thread comes back, and is found in Redis the second time.
  const back = cited.length ? await citedInHistory(rt, spaceId, inboxId, cited) : null;
  if (back) {
    await bringBack(rt, spaceId, back);
    return findThread(rt, spaceId, inboxId, mail, contact);
  }
  if (!wanted) return null;
  const [[written, tested], opened] = hits.slice(at) as [(string | null)[], string | null];
  const candidates = [written?.split(' ')[0], tested, opened].filter((id): id is string => Boolean(id));
  if (!candidates.length) return null;
  // A reply (not an automatic message) will need the thread's last messages: read them on the way.
  const lastMessages = rt.redis.pipeline();
  if (!mail.automatic)
    for (const candidate of candidates) lastMessages.zrevrange(keys.threadMessages(candidate), 0, LAST_MESSAGES - 1);
  const [threads, last] = await Promise.all([readThreads(rt, spaceId, candidates), execAll<string[]>(lastMessages)]);
  const index = threads.findIndex(
    (thread) =>
      thread?.contact === contact && typeof thread.subject === 'string' && subjectKey(thread.subject) === wanted,
  );
  if (index < 0) return null;
  const thread = threads[index]!;
  if (thread.history) {
    // Its messages come back to Redis: the one the mail answers is read there.
    await bringBack(rt, spaceId, thread.id);
    return { threadId: thread.id, answerable: mail.automatic ? [] : null };
  }
  // Every message of a thread counts in message_count, received ones in inbound_count too: when they
  // are equal the thread holds no outbound message, and none of its messages needs to be read.
  const answerable =
    mail.automatic || thread.message_count === thread.inbound_count
      ? []
      : threadIdsIn(thread.msgs, last[index]!, newestFirst);
  return { threadId: thread.id, answerable };
}

/**
 * The thread of an inbox holding the message whose Message-ID is `header` (one it sent or received),
 * with that thread's correspondent; null when the inbox has no such message (SMTP submission's
 * In-Reply-To, docs/operations.md).
 */
export async function threadOfMessageId(
  rt: Runtime,
  spaceId: string,
  inboxId: string,
  header: string,
): Promise<{ thread_id: string; contact: string } | null> {
  const found = await findThread(
    rt,
    spaceId,
    inboxId,
    { in_reply_to: header, references: [], subject: '', automatic: true },
    '',
  );
  if (!found) return null;
  return {
    thread_id: found.threadId,
    contact: (await readThread(rt, spaceId, found.threadId))?.contact ?? '',
  };
}

/** The outbound message a reply answers: the one it cites, else the latest outbound one of the thread's last ten. */
async function answeredMessage(rt: Runtime, spaceId: string, found: Found): Promise<Answered | null> {
  if (found.answered !== undefined) return found.answered;
  const keys = spaceKeys(spaceId);
  const ids =
    found.answerable ??
    (await readThreadIds(
      rt,
      spaceId,
      found.threadId,
      (pipeline, set) => pipeline.zrevrange(set, 0, LAST_MESSAGES - 1),
      newestFirst,
    ));
  if (!ids.length) return null;
  const reads = rt.redis.pipeline();
  for (const id of ids) reads.hmget(keys.message(id), ...ANSWER_FIELDS);
  const messages = await execAll<(string | null)[]>(reads);
  const index = messages.findIndex(isOutbound);
  return index < 0 ? null : answerOf(ids[index]!, messages[index]!);
}

/**
 * Stores a message received for an inbox (its address claim was `active` at RCPT). `admitted`, when
 * given, says late whether to store it at all (the SMTP side's filters, read while the thread is looked
 * up: both in one round trip); when it says no, nothing is written and the answer is null.
 */
export async function receiveInbound(
  rt: Runtime,
  spaceId: string,
  inbox: { id: string; address: string },
  mail: InboundMail,
): Promise<Received>;
export async function receiveInbound(
  rt: Runtime,
  spaceId: string,
  inbox: { id: string; address: string },
  mail: InboundMail,
  admitted: Promise<boolean>,
): Promise<Received | null>;
export async function receiveInbound(
  rt: Runtime,
  spaceId: string,
  inbox: { id: string; address: string },
  mail: InboundMail,
  admitted: Promise<boolean> = Promise.resolve(true),
): Promise<Received | null> {
  const keys = spaceKeys(spaceId);
  const contact = isAddress(mail.from) ? mail.from : '';
  const [found, admit] = await Promise.all([findThread(rt, spaceId, inbox.id, mail, contact), admitted]);
  if (!admit) return null;
  // Read with the ids, not before the threading reads: created_at is then the ids' time, which their
  // hashes leave out (actors/stored-records.ts).
  const now = rt.clock.now();
  const nowIso = iso(now);
  const messageId = rt.ids.next('message');
  const threadId = found?.threadId ?? rt.ids.next('thread');
  const replied = found !== null && !mail.automatic;
  const type = replied ? 'mail.thread.replied' : 'mail.message.received';
  const refs = { inbox_id: inbox.id, thread_id: threadId, message_id: messageId };
  const line = prepareLine(
    rt,
    replied ? 'thread.replied' : 'message.received',
    SERVICE_ACTOR,
    { ...refs, contact },
    {
      from: contact || null,
      subject: mail.subject,
      auto_reply: mail.automatic,
    },
  );
  const answered = replied ? await answeredMessage(rt, spaceId, found) : null;
  // Durable before the script points to them: a crash in between leaves only orphans (blobs for the
  // sweep; a raw source's bytes in its segment, which nothing names).
  const attachments = await storeAttachments(rt, spaceId, mail.attachments);
  const source = mail.source ? await rt.ports.blobs.putSource(spaceId, mail.source) : null;
  const bodies = await storeBodies(rt, spaceId, mail);
  const event = prepareEvent(
    rt,
    spaceId,
    type,
    { person: contact ? { email: contact, name: mail.from_name || null } : null, refs },
    {
      message_id: messageId,
      thread_id: threadId,
      inbox_id: inbox.id,
      answered: answered
        ? { message_id: answered.message_id, subject: answered.subject, sent_at: answered.sent_at }
        : null,
      metadata: answered?.metadata ?? null,
    },
    { message_id: messageId, kind: 'inbound' },
  );
  const search = indexing(spaceId, inbox.id, threadId, {
    subject: mail.subject,
    address: contact,
    name: mail.from_name,
    text: mail.text,
  });
  const reply = await outsideHistory(rt, spaceId, threadId, () =>
    messageLua.receiveInbound(
      rt.scripts,
      {
        inbox: keys.inbox(inbox.id),
        message: keys.message(messageId),
        thread: keys.thread(threadId),
        threadMessages: keys.threadMessages(threadId),
        threads: keys.threads,
        messageIds: keys.messageIds,
        inboxContacts: keys.inboxContacts(inbox.id),
        events: keys.events,
        journal: keys.journal,
        journalIndex: keys.journalIndex,
        webhook: keys.webhook,
        blobs: keys.blobs,
        attachments: keys.receivedAttachments,
        ...search.keys,
      },
      {
        now,
        nowIso,
        messageId,
        threadId,
        newThread: found === null,
        automatic: mail.automatic,
        dedupe: mail.message_id_header ? messageIdEntry(inbox.id, mail.message_id_header) : '',
        contact,
        ...lineArgs(line),
        event,
        blobs: [
          ...(source?.blob ? [blobSetMember(source.blob)] : []),
          ...attachments.map((a) => `${a.id}:${blobSetMember(a.sha256)}`),
          ...bodies.shas.map(blobSetMember),
        ].join(' '),
        thread: storedPairs(inboundThread(threadId, inbox.id, mail, contact, nowIso), keepsThreadField),
        message: storedPairs(
          inboundMessage(
            messageId,
            threadId,
            inbox,
            mail,
            contact,
            nowIso,
            { attachments, source: source?.ref ?? '', bodies },
            answered?.message_id ?? '',
          ),
          keepsMessageField,
        ),
        indexed: search.indexed,
      },
    ),
  );
  if ('duplicate' in reply)
    return { message_id: reply.message_id, thread_id: reply.thread_id, duplicate: true, event: null };
  afterIndexing(rt, spaceId, reply.pending);
  // The reply is stored, and answered so: should this step fail, the feeder's next visit stops the contact all the same.
  if (reply.campaign) {
    await recordReply(rt, spaceId, reply.campaign.id, reply.campaign.contact, threadId).catch((error: Error) =>
      rt.log.warn('campaign reply not recorded', { space_id: spaceId, thread_id: threadId, error: error.message }),
    );
  }
  return { message_id: messageId, thread_id: threadId, duplicate: false, event: type };
}

/** The stored fields of a received message. */
function inboundMessage(
  messageId: string,
  threadId: string,
  inbox: { id: string; address: string },
  mail: InboundMail,
  contact: string,
  nowIso: string,
  blobs: { attachments: AttachmentView[]; source: string; bodies: { text: string; html: string; body_blobs: string } },
  answeredId: string,
): StoredMessage {
  return blankMessage({
    id: messageId,
    thread_id: threadId,
    inbox_id: inbox.id,
    direction: 'inbound',
    status: 'received',
    created_at: nowIso,
    from: contact,
    from_name: mail.from_name,
    to: inbox.address,
    // The To header kept only when it names someone besides the inbox: reply_all reads it, else `to` says it all.
    to_list: mail.to_list?.some((m) => m.address !== inbox.address) ? storedCopies(mail.to_list) : '',
    cc: storedCopies(mail.cc ?? []),
    reply_to: mail.reply_to && mail.reply_to !== contact ? mail.reply_to : '',
    subject: mail.subject,
    text: blobs.bodies.text,
    text_unavailable: mail.text_unavailable ?? '',
    html: blobs.bodies.html,
    body_blobs: blobs.bodies.body_blobs,
    auto_reply: mail.automatic ? '1' : '0',
    received_at: nowIso,
    message_id_header: mail.message_id_header,
    in_reply_to: mail.in_reply_to,
    in_reply_to_id: answeredId,
    references: JSON.stringify(mail.references),
    auth_results: storedAuthResults(mail.auth_results, contact),
    attachments: blobs.attachments.length ? JSON.stringify(blobs.attachments) : '',
    source: blobs.source,
  });
}

/** The fields of the thread a received message starts (written only when the thread is new, but its snippet). */
function inboundThread(
  threadId: string,
  inboxId: string,
  mail: InboundMail,
  contact: string,
  nowIso: string,
): StoredThread {
  return blankThread({
    id: threadId,
    inbox_id: inboxId,
    subject: mail.subject,
    contact,
    contact_name: mail.from_name,
    last_direction: 'inbound',
    created_at: nowIso,
    snippet: threadSnippet(mail.text),
  });
}
