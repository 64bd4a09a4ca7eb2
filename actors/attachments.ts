/**
 * Attachments and raw sources (decisions.md 10): their bytes go to the blob store (src/blobs/, through
 * the ports) before the record that points to them is written, and the space's blob set
 * (keys.blobs) names every blob a record points to, in the same script as the record. A blob outside
 * that set is what a crash between the two writes left: the sweep removes it once it is old enough
 * that no write can still be on its way.
 */
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { MailboxError } from '../src/errors.js';
import { blobKey, hashOfBlob } from '../src/blobs/store.js';
import type { AttachmentView } from '../src/records.js';
import { readMessage, type StoredMessage } from './records.js';

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

/** Writes every part to the blob store (durable once this resolves) and answers their attachment objects. */
export async function storeAttachments(rt: Runtime, spaceId: string, parts: AttachmentPart[]): Promise<AttachmentView[]> {
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

/** One attachment of a message and its bytes; `not_found` for an id the message does not carry. */
export async function attachmentContent(rt: Runtime, spaceId: string, message: StoredMessage, attachmentId: string): Promise<{ attachment: AttachmentView; bytes: Buffer }> {
  const attachment = attachmentsOf(message).find((candidate) => candidate.id === attachmentId);
  if (!attachment) throw new MailboxError('not_found', null, { reason: "Cette pièce jointe n'existe pas dans ce message." });
  const bytes = await rt.ports.blobs.get(blobKey(spaceId, attachment.sha256));
  // The record points to its blob only once the blob was durable: a missing one was lost by the store.
  if (!bytes) throw new MailboxError('internal');
  return { attachment, bytes };
}

/**
 * Removes the blobs of every space that no record points to and that are older than the grace period
 * (crash leftovers); answers how many went.
 */
export async function sweepOrphanBlobs(rt: Runtime, graceMs = SWEEP_GRACE_MS): Promise<number> {
  const before = rt.clock.now() - graceMs;
  let removed = 0;
  for (const spaceId of await rt.ports.blobs.spaces()) {
    const old = (await rt.ports.blobs.list(spaceId)).filter((blob) => blob.writtenAt < before);
    if (!old.length) continue;
    const pointed = await rt.redis.smismember(spaceKeys(spaceId).blobs, ...old.map((blob) => hashOfBlob(blob.key)));
    const orphans = old.filter((_, i) => pointed[i] !== 1).map((blob) => blob.key);
    await rt.ports.blobs.remove(orphans);
    removed += orphans.length;
  }
  if (removed) rt.log.info('orphan blobs removed', { count: removed });
  return removed;
}

/** The attachment a download link names (its signature checked by the caller); `not_found` once the message or space is gone. */
export async function linkedAttachment(rt: Runtime, target: { spaceId: string; messageId: string; attachmentId: string }) {
  const message = await readMessage(rt, target.spaceId, target.messageId);
  if (!message) throw new MailboxError('not_found', null, { reason: "Ce message n'existe plus." });
  return attachmentContent(rt, target.spaceId, message, target.attachmentId);
}
