/**
 * Where a recipient address goes, decided at RCPT TO (so unknown recipients get 550 there, and no
 * bounce is ever sent for mail we refuse: no backscatter): a live inbox (its address claim is
 * `active`), a VERP return path of one of our messages (bounces and complaints), or an unsubscribe
 * mailto address. Anything else is refused.
 */
import { spaceOfAddress } from '../../actors/inbox.js';
import { liveMessage } from '../../actors/history.js';
import { messageRecipient } from '../../actors/stored-records.js';
import { parseVerp } from '../delivery/mime.js';
import { asciiDomain } from '../domains/names.js';
import { verifyUnsubscribeMailto, verifyUnsubscribeToken, type UnsubscribeTarget } from '../delivery/unsubscribe.js';
import type { Runtime } from '../runtime.js';

export type Route =
  | { kind: 'inbox'; address: string; space_id: string; inbox_id: string }
  | { kind: 'report'; space_id: string; message_id: string }
  | { kind: 'unsubscribe'; target: UnsubscribeTarget };

const UNSUBSCRIBE = /^unsubscribe\+([^@]+)@/i;

/** An address as inbox addresses are stored: lowercase, its domain in punycode (with SMTPUTF8 a sender may name one in Unicode). */
export function storedAddress(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  return `${lower.slice(0, at)}@${asciiDomain(lower.slice(at + 1))}`;
}

export async function routeOf(rt: Runtime, rawAddress: string): Promise<Route | null> {
  const address = rawAddress.trim();
  const lower = address.toLowerCase();
  const verp = parseVerp(lower);
  if (verp) {
    // A report about a message of a thread in history brings the thread back: the report writes to the message.
    return (await liveMessage(rt, verp.spaceId, verp.messageId))
      ? { kind: 'report', space_id: verp.spaceId, message_id: verp.messageId }
      : null;
  }
  const unsubscribe = UNSUBSCRIBE.exec(address);
  if (unsubscribe) {
    // Without a master key no link was ever signed: no token can be good.
    if (!rt.config.masterKey) return null;
    const named = verifyUnsubscribeMailto(rt, unsubscribe[1]!);
    if (named) {
      const recipient = await messageRecipient(rt, named.spaceId, named.messageId);
      return recipient ? { kind: 'unsubscribe', target: { ...named, recipient: recipient.toLowerCase() } } : null;
    }
    // The first form, in mail sent before the short one: a case-sensitive token (base64url), read
    // from the address as the sender wrote it.
    const target = verifyUnsubscribeToken(rt, unsubscribe[1]!);
    return target ? { kind: 'unsubscribe', target } : null;
  }
  const stored = storedAddress(lower);
  const claim = await spaceOfAddress(rt, stored);
  if (!claim || claim.state !== 'active') return null;
  return { kind: 'inbox', address: stored, space_id: claim.space_id, inbox_id: claim.inbox_id };
}
