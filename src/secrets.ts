import { hash, randomBytes } from 'node:crypto';
import { ID_BODY_PATTERN, idBody } from './ids.js';

/**
 * Key secrets look like `mbx_<space-prefix>_<32 base62>` (docs/contract.md, Decision 2). The space-prefix is the
 * space id's body rotated so that its random half comes first: the space is read from the secret
 * itself (authentication is one round trip inside the space's hash slot), and the first 12 characters
 * (`prefix` in key lists) name the space distinctly, so any key of the space, or its start, is spotted
 * in a text (`secret_in_message`).
 */
const KEY_PREFIX_CHARS = 12;
/**
 * The kinds of secret that name their space the same way: API keys (`mbx`), human sign-in sessions
 * (`mbs`), and a connection's OAuth authorization codes (`mbc`), access tokens (`mbt`) and refresh
 * tokens (`mbr`). Each is looked up under its space's hash tag, read from the secret itself.
 */
export type SecretKind = 'mbx' | 'mbs' | 'mbc' | 'mbt' | 'mbr';
const SECRET = new RegExp(`^(mb[xsctr])_(${ID_BODY_PATTERN})_[0-9A-Za-z]{32}$`);
const ANY_KEY = new RegExp(`mb[xsctr]_${ID_BODY_PATTERN}_[0-9A-Za-z]{32}`, 'i');
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/=]{16,}/;

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new webhook secret: `whsec_` + base64 of 32 random bytes. Shown once, stored sealed. */
export const newWebhookSecret = (): string => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** SHA-256 in hex: the one digest of secrets, codes, idempotency keys and send contents. */
export const sha256Hex = (text: string): string => hash('sha256', text);

const HALF = 10;
const spacePrefix = (spaceId: string): string => {
  const body = idBody(spaceId);
  return body.slice(HALF) + body.slice(0, HALF);
};

/** The space a secret of `kind` claims to belong to, or null when it is not shaped like one. */
export function spaceOfSecret(secret: string, kind: SecretKind = 'mbx'): string | null {
  const match = SECRET.exec(secret);
  return match && match[1] === kind ? `spc_${match[2]!.slice(HALF)}${match[2]!.slice(0, HALF)}` : null;
}

export const keySecret = (spaceId: string, random: string, kind: SecretKind = 'mbx'): string =>
  `${kind}_${spacePrefix(spaceId)}_${random}`;

export const keyPrefix = (spaceId: string): string => `mbx_${spacePrefix(spaceId)}`.slice(0, KEY_PREFIX_CHARS);

/** True when the text carries a key (or session, code or token) of any space, a webhook secret, or the start of a key of this space. */
export function carriesSecret(text: string, spaceId: string): boolean {
  return ANY_KEY.test(text) || WEBHOOK_SECRET.test(text) || text.toLowerCase().includes(keyPrefix(spaceId));
}
