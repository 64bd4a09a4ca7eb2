import { createHash } from 'node:crypto';
import { ID_BODY_PATTERN, idBody } from './ids.js';

/**
 * Key secrets look like `mbx_<space id body>_<32 base62>`: the space is read from the secret itself,
 * so authentication is one round trip inside the space's hash slot, and any key of a space (or its
 * first 12 characters, the `prefix` shown in lists) can be spotted in a text (`secret_in_message`).
 */
export const KEY_PREFIX_CHARS = 12;
const SECRET = new RegExp(`^mbx_(${ID_BODY_PATTERN})_[0-9A-Za-z]{32}$`);
const ANY_KEY = new RegExp(`mbx_${ID_BODY_PATTERN}_[0-9A-Za-z]{32}`, 'i');
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/=]{16,}/;

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** The space a presented secret claims to belong to, or null when it is not shaped like a key. */
export function spaceOfSecret(secret: string): string | null {
  const match = SECRET.exec(secret);
  return match ? `spc_${match[1]}` : null;
}

export const keySecret = (spaceId: string, random: string): string => `mbx_${idBody(spaceId)}_${random}`;

export const keyPrefix = (spaceId: string): string => `mbx_${idBody(spaceId)}`.slice(0, KEY_PREFIX_CHARS);

/** True when the text carries a key of any space, a webhook secret, or the start of a key of this space. */
export function carriesSecret(text: string, spaceId: string): boolean {
  return ANY_KEY.test(text) || WEBHOOK_SECRET.test(text) || text.toLowerCase().includes(keyPrefix(spaceId));
}
