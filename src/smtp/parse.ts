/**
 * The DATA stream of a session, read once into mailparser (headers, text, the text version of
 * HTML-only mail, attachments) and mailauth (SPF, DKIM, DMARC, ARC): from memory for the usual small
 * message, else streamed into both at the same time. The raw bytes are kept up to `rawMax`: whole for
 * mail to an inbox (its source goes to the blob store, decisions.md 10), capped for a delivery report
 * (src/smtp/reports.ts), not at all otherwise.
 */
import { PassThrough, type Readable } from 'node:stream';
import { authenticate, type AuthenticateResult } from 'mailauth';
import mailparser, { type AddressObject, type ParsedMail } from 'mailparser';
import type { MessageLimits } from '../config.js';
import { messageScanner, type Breach } from './bounds.js';
import { isAutomatic } from '../mail/content.js';
import type { Resolve } from './dns.js';
import type { InboundMail } from '../../actors/inbound.js';

const { simpleParser } = mailparser;

export interface SessionFacts {
  /** The peer's IP address. */
  ip: string;
  /** What it said in EHLO/HELO. */
  helo: string;
  /** MAIL FROM ('' for a null sender, which reports use). */
  mailFrom: string;
  /** Our name, written in the Authentication-Results verdicts. */
  mta: string;
  resolver: Resolve;
}

export interface Parsed {
  mail: InboundMail;
  /** The raw bytes when asked for (delivery reports), else null. */
  raw: Buffer | null;
}

/** Reports are small: past this, a report's tail is not kept (its fields sit at its start). */
export const REPORT_RAW_MAX = 1024 * 1024;
/**
 * Up to this size (most mail) a message is read whole, then parsed and checked from memory: both
 * readers cost several times more fed through streams (about 0.6 ms of CPU for a 1 KB message,
 * against 0.17 ms from a buffer). A larger one streams into both, so its bytes are not held twice.
 */
const BUFFERED_MAX = 256 * 1024;

const firstAddress = (field: AddressObject | AddressObject[] | undefined) => {
  const value = (Array.isArray(field) ? field[0] : field)?.value[0];
  return { address: (value?.address ?? '').toLowerCase(), name: value?.name ?? '' };
};

const idList = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : value.split(/\s+/)).filter(Boolean);

/** The verdicts worth keeping: one word each, plus the DKIM signatures' domains. */
export function authSummary(result: AuthenticateResult): Record<string, unknown> {
  return {
    spf: result.spf ? result.spf.status.result : 'none',
    dkim: result.dkim.results.length ? result.dkim.results.map((r) => ({ domain: r.signingDomain, selector: r.selector ?? null, result: r.status.result })) : [],
    dmarc: result.dmarc ? result.dmarc.status.result : 'none',
    arc: result.arc ? result.arc.status.result : 'none',
    header_from: result.dkim.headerFrom,
  };
}

function inboundOf(parsed: ParsedMail, auth: AuthenticateResult): InboundMail {
  const from = firstAddress(parsed.from);
  const replyTo = firstAddress(parsed.replyTo);
  const subject = parsed.subject ?? '';
  const header = (name: string): string | null => {
    const value = parsed.headers.get(name);
    if (value === undefined || value === null) return null;
    return typeof value === 'string' ? value : typeof value === 'object' && 'value' in value ? String(value.value) : String(value);
  };
  return {
    from: from.address,
    from_name: from.name,
    reply_to: replyTo.address,
    subject,
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    message_id_header: parsed.messageId ?? '',
    in_reply_to: idList(parsed.inReplyTo)[0] ?? '',
    references: idList(parsed.references),
    automatic: isAutomatic(header, subject),
    auth_results: authSummary(auth),
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename ?? null,
      content_type: a.contentType,
      content: a.content,
      inline: a.contentDisposition === 'inline' || a.related === true,
      content_id: a.contentId ?? null,
    })),
    source: null,
  };
}

interface Head {
  chunks: Buffer[];
  bytes: number;
  /** The whole message was read (else the stream is paused past `limit`, the rest unread). */
  ended: boolean;
  /** The bound the message passed: nothing more is read into memory. */
  breach: Breach | null;
}

type Scan = (chunk: Buffer) => Breach | null;

/** Resolves when the stream has ended (its last byte read), rejects on its error. */
const endOf = (stream: Readable): Promise<void> =>
  new Promise((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('error', reject);
  });

/** Reads a stream until its end, until it passed `limit` bytes or a bound: then pauses it and stops listening. */
function readHead(stream: Readable, ended: Promise<void>, limit: number, scan: Scan): Promise<Head> {
  return new Promise((resolve, reject) => {
    const head: Head = { chunks: [], bytes: 0, ended: false, breach: null };
    const onData = (chunk: Buffer) => {
      head.breach = scan(chunk);
      if (!head.breach) {
        head.chunks.push(chunk);
        head.bytes += chunk.length;
        if (head.bytes <= limit) return;
      }
      stream.pause().off('data', onData);
      resolve(head);
    };
    stream.on('data', onData);
    ended.then(() => resolve({ ...head, ended: true }), reject);
  });
}

/**
 * Copies the head already read, then the rest of the DATA stream, into both readers, waiting for the
 * slower one (backpressure), and stops feeding them at the first bound passed (the size, or the
 * shape of src/smtp/bounds.ts): the rest is read and dropped, and the session refuses it.
 */
function tee(stream: Readable, ended: Promise<void>, head: Head, targets: PassThrough[], scan: Scan, keep: (chunk: Buffer) => void) {
  let breach: Breach | null = null;
  const feed = (chunk: Buffer, scanned: boolean) => {
    if (breach) return;
    breach = scanned ? null : scan(chunk);
    if (breach) {
      for (const target of targets) target.end();
      return;
    }
    keep(chunk);
    for (const target of targets) target.write(chunk);
  };
  /** Pauses the stream until every reader drained; false when none needs to. */
  const waitForReaders = (): boolean => {
    const full = targets.filter((target) => target.writableNeedDrain);
    if (breach || !full.length) return false;
    stream.pause();
    let waiting = full.length;
    for (const target of full) target.once('drain', () => --waiting === 0 && stream.resume());
    return true;
  };
  for (const chunk of head.chunks) feed(chunk, true);
  stream.on('data', (chunk: Buffer) => {
    feed(chunk, false);
    waitForReaders();
  });
  ended.then(
    () => {
      if (!breach) for (const target of targets) target.end();
    },
    () => undefined,
  );
  if (!waitForReaders()) stream.resume();
  return { breach: () => breach };
}

/**
 * Reads a DATA stream to its end: parsed mail, authentication verdicts, and the raw bytes up to
 * `rawMax` (0: none); or the first bound of `limits` the message passed (nothing of it is kept, no parser
 * saw more of it than the bounds allow).
 */
export async function parseStream(stream: Readable, facts: SessionFacts, options: { rawMax: number; limits: MessageLimits }): Promise<Parsed | { breach: Breach }> {
  const read = (forParser: Readable | Buffer, forAuth: Readable | Buffer) =>
    Promise.all([
      simpleParser(forParser, { skipImageLinks: true, skipTextLinks: true, skipTextToHtml: true }),
      authenticate(forAuth, { ip: facts.ip, helo: facts.helo, sender: facts.mailFrom, mta: facts.mta, resolver: facts.resolver, disableBimi: true }),
    ]);
  const scan = messageScanner(options.limits);
  const ended = endOf(stream);
  const head = await readHead(stream, ended, Math.min(BUFFERED_MAX, options.limits.bytes), scan);
  if (head.breach) {
    stream.resume();
    await ended;
    return { breach: head.breach };
  }
  if (head.ended) {
    const raw = Buffer.concat(head.chunks, head.bytes);
    const [parsed, auth] = await read(raw, raw);
    return { mail: inboundOf(parsed, auth), raw: options.rawMax ? raw.subarray(0, options.rawMax) : null };
  }
  const toParser = new PassThrough();
  const toAuth = new PassThrough();
  const chunks: Buffer[] = [];
  let kept = 0;
  const copy = tee(stream, ended, head, [toParser, toAuth], scan, (chunk) => {
    if (kept >= options.rawMax) return;
    chunks.push(chunk);
    kept += chunk.length;
  });
  const reading = read(toParser, toAuth);
  // A cut message may not parse: its refusal is the bound, not the parse error.
  reading.catch(() => undefined);
  await ended;
  const breach = copy.breach();
  if (breach) return { breach };
  const [parsed, auth] = await reading;
  return { mail: inboundOf(parsed, auth), raw: options.rawMax ? Buffer.concat(chunks) : null };
}
