/**
 * The DATA stream of a session, read once: its bytes flow at the same time into mailparser (headers,
 * text, the text version of HTML-only mail, attachment metadata) and into mailauth (SPF, DKIM, DMARC,
 * ARC), so the raw message is never held whole beside what the parser keeps. Only mail to a VERP
 * address (a delivery report) also keeps its raw bytes, capped, for src/smtp/reports.ts.
 */
import { PassThrough, type Readable } from 'node:stream';
import { authenticate, type AuthenticateResult } from 'mailauth';
import mailparser, { type AddressObject, type ParsedMail } from 'mailparser';
import { isAutomatic } from './content.js';
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
  resolver: (name: string, rrtype: string) => Promise<string[][] | string[]>;
}

export interface Parsed {
  mail: InboundMail;
  /** The raw bytes when asked for (delivery reports), else null. */
  raw: Buffer | null;
}

/** Reports are small: past this, a report's tail is not kept (its fields sit at its start). */
const REPORT_RAW_MAX = 1024 * 1024;

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
    attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? null, content_type: a.contentType, size: a.size })),
  };
}

/**
 * Copies the DATA stream into both readers, waiting for the slower one (backpressure), and stops
 * feeding them once `maxBytes` is passed: the rest is read and dropped, and the session refuses it.
 */
function tee(stream: Readable, targets: PassThrough[], maxBytes: number, keep: (chunk: Buffer) => void) {
  let bytes = 0;
  let oversized = false;
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  stream.on('data', (chunk: Buffer) => {
    if (oversized) return;
    bytes += chunk.length;
    if (bytes > maxBytes) {
      oversized = true;
      for (const target of targets) target.end();
      return;
    }
    keep(chunk);
    const full = targets.filter((target) => !target.write(chunk));
    if (!full.length) return;
    stream.pause();
    let waiting = full.length;
    for (const target of full) target.once('drain', () => --waiting === 0 && stream.resume());
  });
  stream.on('end', () => {
    if (!oversized) for (const target of targets) target.end();
  });
  return { ended, oversized: () => oversized };
}

/**
 * Reads a DATA stream to its end: parsed mail, authentication verdicts, and the raw bytes when
 * `keepRaw`; null when the message is larger than `maxBytes` (nothing of it is kept).
 */
export async function parseStream(stream: Readable, facts: SessionFacts, options: { keepRaw: boolean; maxBytes: number }): Promise<Parsed | null> {
  const toParser = new PassThrough();
  const toAuth = new PassThrough();
  const chunks: Buffer[] = [];
  let kept = 0;
  const copy = tee(stream, [toParser, toAuth], options.maxBytes, (chunk) => {
    if (!options.keepRaw || kept >= REPORT_RAW_MAX) return;
    chunks.push(chunk);
    kept += chunk.length;
  });
  const reading = Promise.all([
    simpleParser(toParser, { skipImageLinks: true, skipTextLinks: true, skipTextToHtml: true }),
    authenticate(toAuth, { ip: facts.ip, helo: facts.helo, sender: facts.mailFrom, mta: facts.mta, resolver: facts.resolver, disableBimi: true }),
  ]);
  // A cut message may not parse: its refusal is the size, not the parse error.
  reading.catch(() => undefined);
  await copy.ended;
  if (copy.oversized()) return null;
  const [parsed, auth] = await reading;
  return { mail: inboundOf(parsed, auth), raw: options.keepRaw ? Buffer.concat(chunks) : null };
}
