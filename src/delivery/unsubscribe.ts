/**
 * Unsubscribe links that prove themselves: the token carries the space, the message, the recipient and
 * a test flag, sealed by an HMAC-SHA256 under a key derived from the master key, so the endpoint trusts
 * it without reading Redis and a forged or altered token is refused before anything is written.
 *
 * Token: `<payload>.<mac>`, both base64url; payload = flag (`r` real, `t` test) + the 20-character
 * bodies of the space and message ids + the recipient (lowercase); mac = the first 16 bytes (128 bits)
 * of HMAC-SHA256(deriveKey(master, "unsubscribe"), "<space id>.<message id>.<recipient>[.test]").
 * Links: `<BASE_URL>/u/<token>` (GET confirms, POST unsubscribes, RFC 8058 one-click) and the mailto
 * `unsubscribe+<token>@<common domain, else MX host>` (`unsubscribe` is a reserved username).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey, requireMasterKey } from '../crypto.js';
import { idPattern } from '../ids.js';
import type { Runtime } from '../runtime.js';

export interface UnsubscribeTarget {
  spaceId: string;
  messageId: string;
  recipient: string;
  /** A `test` send's link: it unsubscribes nobody. */
  test: boolean;
}

/** 128 bits: far beyond guessing, and a shorter mailto local part than the full 256. */
const MAC_BYTES = 16;
const BODY = 20;
const MAX_TOKEN = 1024;
const SPACE = new RegExp(idPattern('space'));
const MESSAGE = new RegExp(idPattern('message'));

function macOf(rt: Runtime, target: UnsubscribeTarget): Buffer {
  const key = deriveKey(requireMasterKey(rt.config), 'unsubscribe');
  const input = `${target.spaceId}.${target.messageId}.${target.recipient}${target.test ? '.test' : ''}`;
  return createHmac('sha256', key).update(input).digest().subarray(0, MAC_BYTES);
}

function tokenOf(rt: Runtime, target: UnsubscribeTarget): string {
  if (!SPACE.test(target.spaceId) || !MESSAGE.test(target.messageId)) throw new Error('unsubscribe link for malformed ids');
  const payload = `${target.test ? 't' : 'r'}${target.spaceId.slice(4)}${target.messageId.slice(4)}${target.recipient}`;
  return `${Buffer.from(payload, 'utf8').toString('base64url')}.${macOf(rt, target).toString('base64url')}`;
}

/**
 * The https link and the mailto address of one message's recipient (OutgoingMail.unsubscribe).
 * Throws `encryption_unavailable` without a master key: a message never leaves with a link nobody can check.
 */
export function unsubscribeLink(rt: Runtime, spaceId: string, messageId: string, recipient: string, test: boolean): { url: string; mailto: string } {
  const token = tokenOf(rt, { spaceId, messageId, recipient: recipient.toLowerCase(), test });
  const domain = rt.config.commonDomain || rt.config.mxHost;
  return { url: `${rt.config.baseUrl}/u/${token}`, mailto: `unsubscribe+${token}@${domain}` };
}

/** What a token names, or null when it is malformed, altered or forged. */
export function verifyUnsubscribeToken(rt: Runtime, token: string): UnsubscribeTarget | null {
  if (token.length > MAX_TOKEN) return null;
  const [encoded, mac, extra] = token.split('.');
  if (!encoded || !mac || extra !== undefined) return null;
  const payload = Buffer.from(encoded, 'base64url').toString('utf8');
  const flag = payload[0];
  const target: UnsubscribeTarget = {
    spaceId: `spc_${payload.slice(1, 1 + BODY)}`,
    messageId: `msg_${payload.slice(1 + BODY, 1 + 2 * BODY)}`,
    recipient: payload.slice(1 + 2 * BODY),
    test: flag === 't',
  };
  if ((flag !== 'r' && flag !== 't') || !SPACE.test(target.spaceId) || !MESSAGE.test(target.messageId)) return null;
  if (!/^[^@\s]+@[^@\s]+$/.test(target.recipient)) return null;
  const given = Buffer.from(mac, 'base64url');
  const expected = macOf(rt, target);
  return given.length === expected.length && timingSafeEqual(given, expected) ? target : null;
}
