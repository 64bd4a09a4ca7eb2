/**
 * Unsubscribe links that prove themselves: the token carries the space, the message, the recipient and
 * a test flag, sealed by an HMAC-SHA256 under a key derived from the master key, so the endpoint trusts
 * it without reading Redis and a forged or altered token is refused before anything is written.
 *
 * Token: `<payload>.<mac>`, both base64url; payload = flag (`r` real, `t` test) + the 20-character
 * bodies of the space and message ids + the recipient (lowercase); mac = the first 16 bytes (128 bits)
 * of HMAC-SHA256(deriveKey(master, "unsubscribe"), "<space id>.<message id>.<recipient>[.test]").
 * Links: `<BASE_URL>/u/<token>` (GET confirms, POST unsubscribes, RFC 8058 one-click).
 *
 * The mailto address is shorter, for RFC 5321's 64-character local part and for relays that change
 * its case: `unsubscribe+<space body><message body><mac>@<common domain, else MX host>` in lowercase
 * Crockford base32 (`unsubscribe` is a reserved username), 62 characters; mac = the first 50 bits of
 * HMAC-SHA256(deriveKey(master, "unsubscribe-mailto"), "<space id>.<message id>[.test]"). The
 * recipient is the message's own (read at RCPT, src/smtp/routing.ts). 50 bits is enough for a link
 * that can only unsubscribe the one recipient of a message whose two ids the forger must know: one
 * SMTP transaction per guess. Mailto addresses of the first form, `unsubscribe+<token>`, still work.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey, requireMasterKey } from '../crypto.js';
import { ALPHABET, idPattern } from '../ids.js';
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
  if (!SPACE.test(target.spaceId) || !MESSAGE.test(target.messageId))
    throw new Error('unsubscribe link for malformed ids');
  const payload = `${target.test ? 't' : 'r'}${target.spaceId.slice(4)}${target.messageId.slice(4)}${target.recipient}`;
  return `${Buffer.from(payload, 'utf8').toString('base64url')}.${macOf(rt, target).toString('base64url')}`;
}

const MAILTO_MAC_CHARS = 10;
const MAILTO = new RegExp(`^([${ALPHABET}]{${BODY}})([${ALPHABET}]{${BODY}})([${ALPHABET}]{${MAILTO_MAC_CHARS}})$`);

/** The mailto's MAC: 5 bits a character, from the first bytes of the HMAC. */
function mailtoMacOf(rt: Runtime, spaceId: string, messageId: string, test: boolean): string {
  const key = deriveKey(requireMasterKey(rt.config), 'unsubscribe-mailto');
  const mac = createHmac('sha256', key)
    .update(`${spaceId}.${messageId}${test ? '.test' : ''}`)
    .digest();
  let out = '';
  for (let i = 0; i < MAILTO_MAC_CHARS; i++) {
    const bit = i * 5;
    const twoBytes = (mac[bit >> 3]! << 8) | mac[(bit >> 3) + 1]!;
    out += ALPHABET[(twoBytes >> (11 - (bit & 7))) & 31];
  }
  return out;
}

/**
 * The https link and the mailto address of one message's recipient (OutgoingMail.unsubscribe).
 * Throws `encryption_unavailable` without a master key: a message never leaves with a link nobody can check.
 */
export function unsubscribeLink(
  rt: Runtime,
  spaceId: string,
  messageId: string,
  recipient: string,
  test: boolean,
): { url: string; mailto: string } {
  const token = tokenOf(rt, { spaceId, messageId, recipient: recipient.toLowerCase(), test });
  const domain = rt.config.commonDomain || rt.config.mxHost;
  const local = `${spaceId.slice(4)}${messageId.slice(4)}${mailtoMacOf(rt, spaceId, messageId, test)}`;
  return { url: `${rt.config.baseUrl}/u/${token}`, mailto: `unsubscribe+${local}@${domain}` };
}

/**
 * What a mailto address's part after `unsubscribe+` names, but its recipient (the message's), or null
 * when it is not of the short form or its MAC does not check. Case does not matter.
 */
export function verifyUnsubscribeMailto(rt: Runtime, local: string): Omit<UnsubscribeTarget, 'recipient'> | null {
  const match = MAILTO.exec(local.toLowerCase());
  if (!match) return null;
  const spaceId = `spc_${match[1]}`;
  const messageId = `msg_${match[2]}`;
  const given = Buffer.from(match[3]!);
  for (const test of [false, true]) {
    if (timingSafeEqual(given, Buffer.from(mailtoMacOf(rt, spaceId, messageId, test))))
      return { spaceId, messageId, test };
  }
  return null;
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
