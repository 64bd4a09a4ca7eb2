/**
 * Delivery reports read from the raw bytes of a message sent to a VERP address: delivery status
 * notifications (RFC 3464, `multipart/report; report-type=delivery-status`, and the many MTAs that put
 * the same fields in plain text; else the prose notices of Exim, qmail and others, read by their first
 * status code) and complaints (ARF, RFC 5965, `message/feedback-report`). Never
 * throws: anything it cannot read is "not a report". Tested over every file of shared/fixtures/bounces.
 */
import { classifySmtpError, type DeliveryCode } from '../mail/delivery-codes.js';

export interface BouncedRecipient {
  recipient: string | null;
  /** Enhanced status code (RFC 3463), e.g. `5.1.1`. */
  status: string;
  action: string | null;
  diagnostic: string | null;
  /** 5.x.x: the address or message will never be delivered. */
  hard: boolean;
  code: DeliveryCode;
}

export type Report =
  | { kind: 'bounce'; recipients: BouncedRecipient[] }
  | { kind: 'complaint'; recipient: string | null; feedback_type: string }
  | null;

/** Bodies past this are not read: the fields of a report sit in its first kilobytes. */
const SCAN_CHARS = 512 * 1024;

/** Header-like fields of a block (`Name: value` with folded continuations), lowercase names, first wins. */
function fields(block: string): Map<string, string> {
  const out = new Map<string, string>();
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const match = /^([A-Za-z][A-Za-z0-9-]*)\s*:\s*(.*)$/.exec(line);
    if (match && !out.has(match[1]!.toLowerCase())) out.set(match[1]!.toLowerCase(), match[2]!.trim());
  }
  return out;
}

/** `rfc822; a@b` -> `a@b`, lowercase; null when no address is there. */
function addressOf(value: string | undefined): string | null {
  if (!value) return null;
  const raw = value.includes(';') ? value.slice(value.indexOf(';') + 1) : value;
  const match = /<?([^<>\s;"]+@[^<>\s;"]+?)>?\s*$/.exec(raw.trim());
  return match ? match[1]!.toLowerCase() : null;
}

const STATUS = /^([245])\.(\d{1,3})\.(\d{1,3})/;

/** The stable code of a status and its diagnostic, by the same rules as a synchronous refusal. */
function codeOf(status: string, diagnostic: string | null): DeliveryCode {
  const hard = status.startsWith('5');
  const reply =
    diagnostic && /^\d{3}[ -]/.test(diagnostic.replace(/^smtp;\s*/i, ''))
      ? diagnostic.replace(/^smtp;\s*/i, '')
      : `${hard ? 550 : 450} ${status} ${diagnostic ?? ''}`;
  const responseCode = Number(reply.slice(0, 3));
  // The enhanced code of the Status field decides, whatever the diagnostic's own reply line says.
  const response = `${responseCode} ${status} ${reply.slice(4)}`;
  return classifySmtpError({
    responseCode: hard ? Math.max(responseCode, 500) : Math.min(responseCode, 499),
    response,
    command: 'RCPT TO',
  }).code;
}

function complaint(text: string): Report {
  const at = text.search(/^feedback-type\s*:/im);
  if (at < 0) return null;
  const report = fields(text.slice(at, at + 8192));
  const embedded = text.slice(at).search(/^to\s*:/im);
  const recipient =
    addressOf(report.get('original-rcpt-to')) ??
    addressOf(report.get('removal-recipient')) ??
    (embedded >= 0 ? addressOf(fields(text.slice(at + embedded, at + embedded + 1024)).get('to')) : null);
  return { kind: 'complaint', recipient, feedback_type: (report.get('feedback-type') ?? 'abuse').toLowerCase() };
}

/** The failed recipient named anywhere in the report, for blocks that do not name it. */
function anyRecipient(text: string): string | null {
  const f = /^(?:final-recipient|original-recipient|x-failed-recipients)\s*:\s*(.+)$/im.exec(text);
  return addressOf(f?.[1]);
}

function bounce(text: string): Report {
  const recipients: BouncedRecipient[] = [];
  // RFC 3464: per-recipient groups of fields separated by blank lines; the Status line may come
  // before or after the recipient line, so a group is a paragraph holding a Status field.
  const paragraphs = text.split(/\r?\n[ \t]*\r?\n/).filter((p) => /^status\s*:/im.test(p));
  const seen = new Set<string>();
  for (const paragraph of paragraphs) {
    const f = fields(paragraph.slice(paragraph.search(/^[A-Za-z-]+\s*:/m)));
    const status = STATUS.exec(f.get('status') ?? '')?.[0];
    if (!status) continue;
    const recipient =
      addressOf(f.get('final-recipient')) ?? addressOf(f.get('original-recipient')) ?? anyRecipient(text);
    const key = `${recipient}|${status}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const action = f.get('action')?.toLowerCase() ?? null;
    // A delay or a success notice is not a bounce.
    if (action && !['failed', 'expired'].includes(action.split(/\s/)[0]!)) continue;
    const diagnostic = f.get('diagnostic-code') ?? null;
    recipients.push({
      recipient,
      status,
      action,
      diagnostic,
      hard: status.startsWith('5'),
      code: codeOf(status, diagnostic),
    });
  }
  return recipients.length ? { kind: 'bounce', recipients } : null;
}

/** The whole line of `text` around `index`. */
function lineAt(text: string, index: number): string {
  const end = text.indexOf('\n', index);
  return text.slice(text.lastIndexOf('\n', index) + 1, end < 0 ? undefined : end);
}

/** The plain-text failure notices of MTAs that write no RFC 3464 fields (Exim, qmail, Gmail, Yahoo…). */
const NOTICE_SUBJECT =
  /undeliver|delivery (?:status notification \(failure\)|failure|has failed|failed|incomplete)|failure notice|returned mail|mail delivery failed|could not be delivered|returned to sender|non remis|unzustellbar|non recapitabile/i;
const NOTICE_SENDER = /mailer-daemon|postmaster|mail delivery (?:subsystem|system)/i;
/** A delay warning: the MTA still tries, nothing failed yet. */
const STILL_TRYING = /delayed|will (?:continue|keep) trying|will be retried|not yet been delivered/i;
/** An enhanced status code in prose (`(#5.1.1)`, `said: 550 5.1.1`), not a piece of an IP address or a version. */
const STATUS_IN_TEXT = /(?<![\w.])([45])\.(\d{1,3})\.(\d{1,3})(?![.\d]*\d)/;
/** A bare SMTP reply code where MTAs quote the refusal: at a line's start or after `said:`. */
const REPLY_IN_TEXT = /(?:^|said:|:)[ \t]*([45])\d\d[ -]/m;

/**
 * A failure notice without RFC 3464 fields: it counts when its sender or subject says so (or it names
 * `X-Failed-Recipients`), its status is the first enhanced code of its text, else `<digit>.0.0` of the
 * first SMTP reply code quoted, else `5.0.0` for a notice whose headers both say it failed; the line
 * holding the code is its diagnostic. A delay warning is no bounce.
 */
function plainBounce(head: Map<string, string>, body: string): Report {
  const failedRecipient = addressOf(head.get('x-failed-recipients')?.split(',')[0]);
  const subjectSays = NOTICE_SUBJECT.test(head.get('subject') ?? '');
  const senderSays = NOTICE_SENDER.test(head.get('from') ?? '');
  if (!failedRecipient && !subjectSays && !senderSays) return null;
  const enhanced = STATUS_IN_TEXT.exec(body);
  const reply = enhanced ? null : REPLY_IN_TEXT.exec(body);
  const found = enhanced ?? reply;
  const status = enhanced
    ? enhanced[0]
    : reply
      ? `${reply[1]}.0.0`
      : failedRecipient || (subjectSays && senderSays)
        ? '5.0.0'
        : null;
  // Only a stated permanent code outweighs words of a delay.
  if (!status || (STILL_TRYING.test(body) && !(found && status.startsWith('5')))) return null;
  const diagnostic = found ? lineAt(body, found.index).trim().slice(0, 300) || null : null;
  return {
    kind: 'bounce',
    recipients: [
      {
        recipient: failedRecipient,
        status,
        action: 'failed',
        diagnostic,
        hard: status.startsWith('5'),
        code: codeOf(status, diagnostic),
      },
    ],
  };
}

/** What a message sent to a VERP address reports, or null (an auto-reply, a person's mail, garbage). */
export function parseReport(raw: Buffer | string): Report {
  try {
    const text = (typeof raw === 'string' ? raw : raw.toString('latin1')).slice(0, SCAN_CHARS);
    const head = text.slice(0, Math.max(text.search(/\r?\n\r?\n/), 0));
    const headers = fields(head);
    const contentType = headers.get('content-type')?.toLowerCase() ?? '';
    if (contentType.includes('feedback-report') || /^content-type\s*:\s*message\/feedback-report/im.test(text)) {
      const found = complaint(text);
      if (found) return found;
    }
    // Microsoft's junk-mail reports (JMRP) embed the original message with this header instead of ARF fields.
    const jmrp = /^x-hmxmroriginalrecipient\s*:\s*(.+)$/im.exec(text);
    if (jmrp) return { kind: 'complaint', recipient: addressOf(jmrp[1]), feedback_type: 'abuse' };
    return bounce(text) ?? plainBounce(headers, text.slice(head.length));
  } catch {
    return null;
  }
}
