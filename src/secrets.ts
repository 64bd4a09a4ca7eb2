import { createHash, randomBytes } from 'node:crypto';
import { ID_BODY_PATTERN, idBody } from './ids.js';

/**
 * Key secrets look like `mbx_<space-prefix>_<32 base62>` (decisions.md 2). The space-prefix is the
 * space id's body rotated so that its random half comes first: the space is read from the secret
 * itself (authentication is one round trip inside the space's hash slot), and the first 12 characters
 * (`prefix` in key lists) name the space distinctly, so any key of the space, or its start, is spotted
 * in a text (`secret_in_message`).
 */
export const KEY_PREFIX_CHARS = 12;
const SECRET = new RegExp(`^mbx_(${ID_BODY_PATTERN})_[0-9A-Za-z]{32}$`);
const ANY_KEY = new RegExp(`mbx_${ID_BODY_PATTERN}_[0-9A-Za-z]{32}`, 'i');
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/=]{16,}/;

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new webhook secret: `whsec_` + base64 of 32 random bytes. Shown once, stored sealed. */
export const newWebhookSecret = (): string => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** SHA-256 in hex: the one digest of secrets, codes, idempotency keys and send contents. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The space a presented secret claims to belong to, or null when it is not shaped like a key. */
const HALF = 10;
const spacePrefix = (spaceId: string): string => {
  const body = idBody(spaceId);
  return body.slice(HALF) + body.slice(0, HALF);
};

export function spaceOfSecret(secret: string): string | null {
  const match = SECRET.exec(secret);
  return match ? `spc_${match[1]!.slice(HALF)}${match[1]!.slice(0, HALF)}` : null;
}

export const keySecret = (spaceId: string, random: string): string => `mbx_${spacePrefix(spaceId)}_${random}`;

export const keyPrefix = (spaceId: string): string => `mbx_${spacePrefix(spaceId)}`.slice(0, KEY_PREFIX_CHARS);

/** True when the text carries a key of any space, a webhook secret, or the start of a key of this space. */
export function carriesSecret(text: string, spaceId: string): boolean {
  return ANY_KEY.test(text) || WEBHOOK_SECRET.test(text) || text.toLowerCase().includes(keyPrefix(spaceId));
}
