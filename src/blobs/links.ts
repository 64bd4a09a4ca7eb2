/**
 * The signed download link of an attachment (docs/contract.md, Decision 10): `<BASE_URL>/a/<space>.<message>.<attachment>.<expiry>.<mac>`,
 * valid 15 minutes, HMAC-SHA256 under a key derived from the master key. It proves itself: the GET
 * route needs no API key, so an agent can hand it to a tool that fetches URLs.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../crypto.js';
import { idPattern } from '../ids.js';

export const DOWNLOAD_LINK_TTL_MS = 15 * 60 * 1000;
const MAC_CHARS = 43;

export interface LinkTarget {
  spaceId: string;
  messageId: string;
  attachmentId: string;
}

const ids = (kind: 'space' | 'message' | 'attachment') => idPattern(kind).slice(1, -1);
const TOKEN = new RegExp(
  `^(${ids('space')})\\.(${ids('message')})\\.(${ids('attachment')})\\.([0-9]{13})\\.([A-Za-z0-9_-]{${MAC_CHARS}})$`,
);

const macOf = (masterKey: Buffer, payload: string): string =>
  createHmac('sha256', deriveKey(masterKey, 'attachment-link')).update(payload).digest('base64url');

/** The token of the link path (after `/a/`), valid until `expiresAt` (ms). */
export function downloadToken(masterKey: Buffer, target: LinkTarget, expiresAt: number): string {
  const payload = `${target.spaceId}.${target.messageId}.${target.attachmentId}.${expiresAt}`;
  return `${payload}.${macOf(masterKey, payload)}`;
}

/** What a token points to, or null: malformed, forged or expired at `now`. */
export function verifyDownloadToken(masterKey: Buffer, token: string, now: number): LinkTarget | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, spaceId, messageId, attachmentId, expiry, mac] = match;
  const expected = Buffer.from(macOf(masterKey, `${spaceId}.${messageId}.${attachmentId}.${expiry}`));
  if (!timingSafeEqual(expected, Buffer.from(mac!)) || Number(expiry) < now) return null;
  return { spaceId: spaceId!, messageId: messageId!, attachmentId: attachmentId! };
}
