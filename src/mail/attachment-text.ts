/**
 * The text an agent can read from an attachment (decisions.md 10): text parts as they are, HTML through
 * html-to-text (what mailparser uses for HTML-only mail), PDF through pdf-parse; null for anything else
 * or a file these cannot read. A rule of the mail layer: bytes in, text out, no I/O.
 */
import { convert } from 'html-to-text';
import { PDFParse } from 'pdf-parse';

/** More text than an agent reads in one answer is cut here. */
export const ATTACHMENT_TEXT_MAX_CHARS = 200_000;

async function pdfText(bytes: Buffer): Promise<string | null> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text;
  } catch {
    return null;
  } finally {
    await parser.destroy();
  }
}

const bareType = (contentType: string): string => contentType.toLowerCase().split(';')[0]!.trim();

/** Whether `attachmentText` reads anything from this type: the others need not be read at all. */
export const hasText = (contentType: string): boolean => {
  const type = bareType(contentType);
  return type.startsWith('text/') || type === 'application/pdf';
};

export async function attachmentText(contentType: string, bytes: Buffer): Promise<string | null> {
  if (!hasText(contentType)) return null;
  const type = bareType(contentType);
  const text =
    type === 'text/html' ? convert(bytes.toString('utf8'), { wordwrap: false }) :
    type.startsWith('text/') ? bytes.toString('utf8') :
    await pdfText(bytes);
  return text === null ? null : text.trim().slice(0, ATTACHMENT_TEXT_MAX_CHARS);
}
