/**
 * A content worker thread (src/mail/sandbox.ts): reads one job at a time, a received message's MIME
 * (`mime`: mailparser, without the text version of its HTML) or an HTML document's text (`html`:
 * src/mail/html-text.ts), and answers its outcome. An error of the parser is the content's:
 * `unreadable`.
 */
import { parentPort } from 'node:worker_threads';
import mailparser, { type AddressObject, type ParsedMail } from 'mailparser';
import { isAutomatic } from './content.js';
import { htmlText } from './html-text.js';
import { isAddress } from '../sending/validate.js';
import { READY, type Outcome, type Reply } from './sandbox.js';
import type { MimeContent, MimeJob, HtmlJob } from './extract.js';

const { simpleParser } = mailparser;

const firstAddress = (field: AddressObject | AddressObject[] | undefined) => {
  const value = (Array.isArray(field) ? field[0] : field)?.value[0];
  return { address: (value?.address ?? '').toLowerCase(), name: value?.name ?? '' };
};

/** Most addresses of a To or Cc header kept: enough for any real message, no list of hundreds carried along. */
const ADDRESSES_KEPT = 50;

/** Every address of a To or Cc header (groups opened), lowercase, those that are addresses only. */
const allAddresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((object) => object.value.flatMap((entry) => (entry.group ? entry.group : [entry])))
    .map((entry) => ({ address: (entry.address ?? '').toLowerCase(), name: entry.name || null }))
    .filter((entry) => isAddress(entry.address))
    .slice(0, ADDRESSES_KEPT);

const idList = (value: string | string[] | undefined): string[] =>
  (value === undefined ? [] : Array.isArray(value) ? value : value.split(/\s+/)).filter(Boolean);

function contentOf(parsed: ParsedMail): MimeContent {
  const from = firstAddress(parsed.from);
  const subject = parsed.subject ?? '';
  const header = (name: string): string | null => {
    const value = parsed.headers.get(name);
    if (value === undefined || value === null) return null;
    return typeof value === 'string'
      ? value
      : typeof value === 'object' && 'value' in value
        ? String(value.value)
        : String(value);
  };
  return {
    from: from.address,
    from_name: from.name,
    reply_to: firstAddress(parsed.replyTo).address,
    to_list: allAddresses(parsed.to),
    cc: allAddresses(parsed.cc),
    subject,
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    message_id_header: parsed.messageId ?? '',
    in_reply_to: idList(parsed.inReplyTo)[0] ?? '',
    references: idList(parsed.references),
    automatic: isAutomatic(header, subject),
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename ?? null,
      content_type: a.contentType,
      content: a.content,
      inline: a.contentDisposition === 'inline' || a.related === true,
      content_id: a.contentId ?? null,
    })),
  };
}

async function read(job: MimeJob | HtmlJob): Promise<Outcome<unknown>> {
  if (job.kind === 'html') return htmlText(job.html, { maxDepth: job.maxDepth, wordwrap: job.wordwrap });
  // The HTML's text is another job, bounded on its own: a message whose text cannot be had is still stored.
  const parsed = await simpleParser(Buffer.from(job.raw.buffer, job.raw.byteOffset, job.raw.byteLength), {
    skipHtmlToText: true,
    skipImageLinks: true,
    skipTextLinks: true,
    skipTextToHtml: true,
    maxChildNodes: job.maxChildNodes,
  } as Parameters<typeof simpleParser>[1]);
  return { ok: true, value: contentOf(parsed) };
}

parentPort!.on('message', (job: (MimeJob | HtmlJob) & { id: number }) => {
  read(job).then(
    (outcome) => parentPort!.postMessage({ id: job.id, ...outcome } satisfies Reply<unknown>),
    () => parentPort!.postMessage({ id: job.id, ok: false, reason: 'unreadable' } satisfies Reply<unknown>),
  );
});
parentPort!.postMessage(READY);
