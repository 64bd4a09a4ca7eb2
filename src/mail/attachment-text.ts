/**
 * The text an agent can read from an attachment (docs/contract.md, Decision 10): text parts as they are, HTML and PDF
 * through the sandboxes of src/mail/extract.ts (html-to-text in a content worker, pdf-parse in a child
 * process), within the limits on untrusted content; none for anything else. A file of a type with text
 * whose text cannot be had says why (`unavailable`). A rule of the mail layer: bytes in, text out.
 */
import type { ContentLimits } from '../config.js';
import { htmlText, pdfText } from './extract.js';
import { essenceOf } from './media-type.js';
import type { TextUnavailable } from '../record-schemas.js';
import type { Outcome } from './sandbox.js';

/** More text than an agent reads in one answer is cut here. */
const ATTACHMENT_TEXT_MAX_CHARS = 200_000;

export interface AttachmentText {
  /** null: no text (a type without any, or one that could not be had). */
  text: string | null;
  /** Why a file of a type with text has none; null otherwise. */
  unavailable: TextUnavailable | null;
}

/** The declared type, as attachmentText reads it: a text type, a PDF, or none of them (null). */
function readable(contentType: string): string | null {
  const essence = essenceOf(contentType);
  return essence && (essence.startsWith('text/') || essence === 'application/pdf') ? essence : null;
}

/** Whether `attachmentText` reads anything from this type: the others need not be read at all. */
export const hasText = (contentType: string): boolean => readable(contentType) !== null;

export async function attachmentText(
  contentType: string,
  bytes: Buffer,
  limits: ContentLimits,
): Promise<AttachmentText> {
  const essence = readable(contentType);
  if (!essence) return { text: null, unavailable: null };
  const read: Outcome<string> =
    essence === 'application/pdf'
      ? await pdfText(bytes, limits)
      : essence === 'text/html' || essence === 'text/x-html'
        ? await htmlText(bytes.toString('utf8'), limits, false)
        : { ok: true, value: bytes.toString('utf8') };
  return read.ok
    ? { text: read.value.trim().slice(0, ATTACHMENT_TEXT_MAX_CHARS), unavailable: null }
    : { text: null, unavailable: read.reason };
}
