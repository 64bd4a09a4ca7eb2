/**
 * Attachments and raw sources (docs/contract.md, Decision 10): their bytes go to the blob store (src/blobs/, through
 * the ports) before the record that points to them is written, and the space's blob set
 * (keys.blobs) names every blob a record points to, in the same script as the record. A blob outside
 * that set is what a crash between the two writes left: the sweep removes it once it is old enough
 * that no write can still be on its way.
 */
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { MailboxError } from '../src/errors.js';
import { blobKey, blobSetMember, hashOfBlob, sha256Of, type BlobStream } from '../src/blobs/store.js';
import {
  checkFilename,
  checkNotRunnable,
  decodeBase64,
  detectedType,
  settledType,
  TYPE_SIGNATURE_BYTES,
} from '../src/mail/attachment-rules.js';
import type { AttachmentView } from '../src/record-schemas.js';
import { readMessage, type StoredMessage } from './stored-records.js';
import { documentName, threadsOfNames } from './history-names.js';

/** A file as a parser or a caller gives it, before it is stored. */
export interface AttachmentPart {
  filename: string | null;
  content_type: string;
  content: Buffer;
  inline: boolean;
  content_id: string | null;
}

/** A blob younger than this may belong to a record still being written: the sweep leaves it. */
export const SWEEP_GRACE_MS = 3600 * 1000;

/** A file of an outgoing message as the caller gives it (send_email, reply_to_thread, update_draft). */
export type AttachmentInput =
  { filename: string; content_type?: string; content_base64: string } | { attachment_id: string };

/** A checked outgoing file: new bytes to store, or a received file of the space (already stored). */
export interface OutgoingFile {
  filename: string | null;
  content_type: string;
  size: number;
  sha256: string;
  /** null: forwarded, its blob is in the store already. */
  content: Buffer | null;
}

/** The names of the new files, for the secret check (secret_in_message applies to file names). */
export const attachmentNames = (inputs: AttachmentInput[] | undefined): string =>
  (inputs ?? []).map((input) => ('filename' in input ? input.filename : '')).join('\n');

const overLimit = (filename: string | null, max: number) =>
  new MailboxError('attachment_refused', {
    filename: filename ?? '',
    reason: `les fichiers dépassent ${max} octets au total`,
  });

/**
 * Checks the files of an outgoing message (src/mail/attachment-rules.ts) and finds the forwarded ones
 * among the received files of the space the key may read (`not_found` otherwise). Nothing is written.
 */
export async function checkOutgoingFiles(
  rt: Runtime,
  spaceId: string,
  inboxIds: string[] | null,
  inputs: AttachmentInput[],
): Promise<OutgoingFile[]> {
  const files: OutgoingFile[] = [];
  let total = 0;
  for (const input of inputs) {
    let file: OutgoingFile;
    if ('attachment_id' in input) {
      const messageId = await rt.redis.hget(spaceKeys(spaceId).receivedAttachments, input.attachment_id);
      const message = messageId ? await readMessage(rt, spaceId, messageId) : null;
      const received =
        message && (!inboxIds || inboxIds.includes(message.inbox_id))
          ? attachmentsOf(message).find((a) => a.id === input.attachment_id)
          : undefined;
      if (!received)
        throw new MailboxError('not_found', null, {
          reason: `La pièce jointe ${input.attachment_id} n'existe pas pour cette clé.`,
        });
      // A correspondent named and typed it: the same rules as for new bytes, but for the declared type, which
      // it declared, not the agent (it goes out as received).
      if (received.filename !== null) checkFilename(received.filename);
      checkNotRunnable(received.filename ?? '', received.content_type);
      await detectedType(received.filename ?? '', await blobHead(rt, spaceId, received.sha256));
      file = {
        filename: received.filename,
        content_type: received.content_type,
        size: received.size,
        sha256: received.sha256,
        content: null,
      };
    } else {
      checkFilename(input.filename);
      const content = decodeBase64(input.content_base64);
      if (!content)
        throw new MailboxError(
          'invalid_argument',
          { parameter: 'attachments' },
          { reason: `content_base64 de « ${input.filename} » n'est pas du base64.` },
        );
      const contentType = await settledType(input.filename, input.content_type, content);
      checkNotRunnable(input.filename, contentType);
      file = {
        filename: input.filename,
        content_type: contentType,
        size: content.length,
        sha256: sha256Of(content),
        content,
      };
    }
    total += file.size;
    if (total > rt.config.attachmentMaxBytes) throw overLimit(file.filename, rt.config.attachmentMaxBytes);
    files.push(file);
  }
  return files;
}

/** Stores the new bytes of checked outgoing files (durable once this resolves) and answers their attachment objects. */
export async function storeOutgoingFiles(
  rt: Runtime,
  spaceId: string,
  files: OutgoingFile[],
): Promise<AttachmentView[]> {
  const views: AttachmentView[] = [];
  for (const file of files) {
    if (file.content) await rt.ports.blobs.put(spaceId, file.content);
    views.push({
      id: rt.ids.next('attachment'),
      filename: file.filename,
      content_type: file.content_type,
      size: file.size,
      inline: false,
      content_id: null,
      sha256: file.sha256,
    });
  }
  return views;
}

/** The same files in the same order (names, types, bytes), whatever their attachment ids. */
export const sameFiles = (a: AttachmentView[], b: AttachmentView[]): boolean =>
  a.length === b.length &&
  a.every(
    (file, i) =>
      file.filename === b[i]!.filename && file.content_type === b[i]!.content_type && file.sha256 === b[i]!.sha256,
  );

/** The bytes of a message's files, for its MIME (the send worker). */
export async function attachmentFiles(
  rt: Runtime,
  spaceId: string,
  message: Pick<StoredMessage, 'attachments'>,
): Promise<{ view: AttachmentView; content: Buffer }[]> {
  const files: { view: AttachmentView; content: Buffer }[] = [];
  for (const view of attachmentsOf(message)) {
    const content = await rt.ports.blobs.get(blobKey(spaceId, view.sha256));
    if (!content) throw new Error(`blob ${view.sha256} of a message of ${spaceId} is missing from the blob store`);
    files.push({ view, content });
  }
  return files;
}

/** A body (text or html) longer than this, in UTF-8 bytes, lives in the blob store (docs/contract.md, Decision 10). */
const BODY_INLINE_MAX_BYTES = 2048;

/**
 * A message's bodies as stored: each one over 2 KB written to the blob store (durable once this
 * resolves) and '' in its field, named in `body_blobs`; `shas` for the space's blob set.
 */
export async function storeBodies(rt: Runtime, spaceId: string, bodies: { text: string; html: string }) {
  // Only the two bodies: callers pass whole records, which a spread would copy field by field.
  const stored = { text: bodies.text, html: bodies.html, body_blobs: '', shas: [] as string[] };
  const entries: string[] = [];
  for (const field of ['text', 'html'] as const) {
    if (Buffer.byteLength(bodies[field], 'utf8') <= BODY_INLINE_MAX_BYTES) continue;
    const { sha256 } = await rt.ports.blobs.put(spaceId, Buffer.from(bodies[field], 'utf8'));
    stored[field] = '';
    entries.push(`${field}:${sha256}`);
    stored.shas.push(sha256);
  }
  stored.body_blobs = entries.join(' ');
  return stored;
}

/** Writes every part to the blob store (durable once this resolves) and answers their attachment objects. */
export async function storeAttachments(
  rt: Runtime,
  spaceId: string,
  parts: AttachmentPart[],
): Promise<AttachmentView[]> {
  const views: AttachmentView[] = [];
  for (const part of parts) {
    const blob = await rt.ports.blobs.put(spaceId, part.content);
    views.push({
      id: rt.ids.next('attachment'),
      filename: part.filename,
      content_type: part.content_type,
      size: blob.size,
      inline: part.inline,
      content_id: part.content_id,
      sha256: blob.sha256,
    });
  }
  return views;
}

/** The attachment objects of a stored message ([] for none). */
export const attachmentsOf = (message: Pick<StoredMessage, 'attachments'>): AttachmentView[] =>
  message.attachments ? (JSON.parse(message.attachments) as AttachmentView[]) : [];

/** One attachment a message carries; `not_found` for an id it does not carry. */
export function messageAttachment(message: StoredMessage, attachmentId: string): AttachmentView {
  const attachment = attachmentsOf(message).find((candidate) => candidate.id === attachmentId);
  if (!attachment)
    throw new MailboxError('not_found', null, { reason: "Cette pièce jointe n'existe pas dans ce message." });
  return attachment;
}

/** The record points to its blob only once the blob was durable: a missing one was lost by the store. */
function lostBlob(): never {
  throw new MailboxError('internal');
}

/** The first bytes of a stored file (its type's signature), never the whole file in memory. */
async function blobHead(rt: Runtime, spaceId: string, sha256: string): Promise<Buffer> {
  const blob = (await rt.ports.blobs.stream(blobKey(spaceId, sha256))) ?? lostBlob();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of blob.body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= TYPE_SIGNATURE_BYTES) break;
    }
  } finally {
    blob.body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, TYPE_SIGNATURE_BYTES);
}

/** An attachment's bytes, whole in memory: for the small ones and those whose text is read. */
export async function attachmentBytes(rt: Runtime, spaceId: string, attachment: AttachmentView): Promise<Buffer> {
  return (await rt.ports.blobs.get(blobKey(spaceId, attachment.sha256))) ?? lostBlob();
}

/**
 * Removes the blobs of every space that no record points to and that are older than the grace period
 * (crash leftovers, a thread's document once it left history); answers how many went. A record points
 * to a blob through the space's blob set, a thread in history to its document through the document's
 * name (actors/history-names.ts).
 */
export async function sweepOrphanBlobs(rt: Runtime, graceMs = SWEEP_GRACE_MS): Promise<number> {
  const before = rt.clock.now() - graceMs;
  let removed = 0;
  for (const spaceId of await rt.ports.blobs.spaces()) {
    const old = (await rt.ports.blobs.list(spaceId)).filter((blob) => blob.writtenAt < before);
    if (!old.length) continue;
    const pointed = await rt.redis.smismember(
      spaceKeys(spaceId).blobs,
      ...old.map((blob) => blobSetMember(hashOfBlob(blob.key))),
    );
    const unlisted = old.filter((_, i) => pointed[i] !== 1);
    const inHistory = unlisted.length
      ? await threadsOfNames(
          rt,
          spaceId,
          unlisted.map((blob) => documentName(blobSetMember(hashOfBlob(blob.key)))),
        )
      : [];
    const orphans = unlisted.filter((_, i) => inHistory[i] === null).map((blob) => blob.key);
    await rt.ports.blobs.remove(orphans);
    removed += orphans.length;
  }
  if (removed) rt.log.info('orphan blobs removed', { count: removed });
  return removed;
}

/**
 * The attachment a download link names (its signature checked by the caller) and its bytes as a stream
 * (never whole in memory); `not_found` once the message or space is gone.
 */
export async function linkedAttachment(
  rt: Runtime,
  target: { spaceId: string; messageId: string; attachmentId: string },
): Promise<{ attachment: AttachmentView; content: BlobStream }> {
  const message = await readMessage(rt, target.spaceId, target.messageId);
  if (!message) throw new MailboxError('not_found', null, { reason: "Ce message n'existe plus." });
  const attachment = messageAttachment(message, target.attachmentId);
  const content = (await rt.ports.blobs.stream(blobKey(target.spaceId, attachment.sha256))) ?? lostBlob();
  return { attachment, content };
}
