/**
 * The stable codes of a failed delivery attempt (a message's `status_code`), and how an SMTP or network
 * failure maps to one. Permanent codes are not retried; temporary ones are, with backoff, by the queue.
 * `recipient_unknown` is the one that says the address is dead (the hard bounce the circuit breaker and
 * the platform's dead-address list count); the other permanent codes are about this message or policy.
 */
export const DELIVERY_CODES = {
  recipient_unknown: {
    permanent: true,
    meaning: 'the receiving server says the mailbox does not exist (5.1.x, 550 user unknown)',
  },
  mailbox_full: { permanent: true, meaning: 'the mailbox is over quota (5.2.2)' },
  message_too_large: {
    permanent: true,
    meaning: 'the message exceeds the receiving server size limit (5.3.4, 5.2.3, 552 size)',
  },
  policy_rejected: {
    permanent: true,
    meaning: 'refused by policy: spam, reputation, authentication (5.7.x, 554 policy)',
  },
  smtp_5xx: { permanent: true, meaning: 'any other permanent SMTP refusal' },
  no_mx: {
    permanent: true,
    meaning: 'the recipient domain has no mail server: no MX nor address, or a null MX (RFC 7505)',
  },
  invalid_address: { permanent: true, meaning: 'the sender or recipient address is not one SMTP can carry' },
  recipient_suppressed: {
    permanent: true,
    meaning:
      'not sent: the recipient went on the space suppression list, or became dead platform-wide, after the message was queued',
  },
  smtp_4xx: { permanent: false, meaning: 'temporary SMTP refusal (greylisting, rate limit, 4.x.x)' },
  timeout: { permanent: false, meaning: 'the server did not answer in time (connection, greeting or command)' },
  connection_failed: { permanent: false, meaning: 'no connection: refused, reset, TLS failure, or closed mid-session' },
  dns_failed: { permanent: false, meaning: 'the recipient domain could not be resolved (SERVFAIL, timeout)' },
  relay_auth_failed: {
    permanent: false,
    meaning: 'the SMTP relay refused our credentials: an operator fixes OUTBOUND, the message waits',
  },
  outbox_failed: { permanent: false, meaning: 'the outbox file could not be written (disk full, permissions)' },
} as const;

export type DeliveryCode = keyof typeof DELIVERY_CODES;

export const isPermanent = (code: DeliveryCode): boolean => DELIVERY_CODES[code].permanent;

/** What nodemailer's SMTP client attaches to its errors. */
interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  message?: string;
}

/** The enhanced status code (RFC 3463) of a reply, e.g. `5.1.1`, when the server gave one. */
const enhancedOf = (response: string): string | null =>
  /^\d{3}[ -](\d\.\d{1,3}\.\d{1,3})\b/.exec(response)?.[1] ?? null;

/** Replies of servers that give no enhanced code, by the words they use. */
const UNKNOWN_USER =
  /user unknown|unknown user|no such (user|mailbox|recipient|address)|does ?n[o']t exist|not exist|invalid (recipient|mailbox)|recipient (address )?rejected|mailbox not found|unrouteable/i;
const FULL = /mailbox (is )?full|over ?quota|quota exceeded|insufficient storage/i;
const TOO_LARGE = /too (large|big)|size (limit|exceed)|exceeds.*size|message size/i;
const POLICY = /spam|policy|blocked|block ?list|black ?list|reputation|dmarc|spf|dkim|rejected for abuse/i;

function permanentCode(responseCode: number, response: string, command: string): DeliveryCode {
  const enhanced = enhancedOf(response);
  if (enhanced) {
    const [, subject, detail] = enhanced.split('.');
    if (subject === '1' && ['0', '1', '2', '3', '6', '10'].includes(detail!) && command !== 'MAIL FROM')
      return 'recipient_unknown';
    if (subject === '2' && detail === '2') return 'mailbox_full';
    if ((subject === '3' && detail === '4') || (subject === '2' && detail === '3')) return 'message_too_large';
    if (subject === '7') return 'policy_rejected';
  }
  if (command === 'RCPT TO' && [550, 551, 553].includes(responseCode) && UNKNOWN_USER.test(response))
    return 'recipient_unknown';
  if (FULL.test(response)) return 'mailbox_full';
  // 552 is "exceeded storage allocation" (RFC 5321): about this message once a full mailbox is ruled out.
  if (responseCode === 552 || TOO_LARGE.test(response)) return 'message_too_large';
  if (POLICY.test(response)) return 'policy_rejected';
  return 'smtp_5xx';
}

/**
 * A failure of nodemailer's SMTP client as a delivery code. A server's reply decides by its class:
 * 5xx permanent (refined by the enhanced code, then by its words), 4xx temporary; without a reply, the
 * network failure (timeout, refused or reset connection, TLS, DNS) is temporary.
 */
export function classifySmtpError(error: unknown): { code: DeliveryCode; response: string } {
  const e = (error ?? {}) as SmtpError;
  const response = (e.response ?? e.message ?? String(error)).trim();
  if (e.code === 'EAUTH') return { code: 'relay_auth_failed', response };
  if (e.responseCode && e.responseCode >= 500)
    return { code: permanentCode(e.responseCode, response, e.command ?? ''), response };
  if (e.responseCode && e.responseCode >= 400) return { code: 'smtp_4xx', response };
  switch (e.code) {
    case 'ETIMEDOUT':
      return { code: 'timeout', response };
    case 'EDNS':
      return { code: 'dns_failed', response };
    case 'EENVELOPE':
      return { code: 'invalid_address', response };
    case 'EMESSAGE':
      // Refused by our client before DATA: the server announced a SIZE smaller than the message.
      return { code: 'message_too_large', response };
    default:
      return { code: 'connection_failed', response };
  }
}
