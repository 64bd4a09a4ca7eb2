/**
 * Secrets at rest (DKIM private keys, webhook secrets): AES-256-GCM under the operator's master key
 * (MAILBOX_MASTER_KEY). The one place that seals and opens, so every secret has the same format:
 * `v1.<iv>.<tag>.<ciphertext>` in base64url. The `context` is bound as additional data, so a sealed
 * value copied to another field or another object does not open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from './config.js';
import { MailboxError } from './errors.js';

const VERSION = 'v1';
const IV_BYTES = 12;

/** The master key, or `encryption_unavailable` for a tool that cannot work without one. */
export function requireMasterKey(config: Config): Buffer {
  if (!config.masterKey) throw new MailboxError('encryption_unavailable');
  return config.masterKey;
}

export function seal(masterKey: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Throws when the value was not sealed under this key and context (tampered, moved, or another key). */
export function open(masterKey: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

const derivedKeys = new WeakMap<Buffer, Map<string, Buffer>>();

/**
 * A key of its own per purpose (`unsubscribe`, ...), HKDF-SHA256 of the master key: a derived key that
 * leaks reveals neither the master key nor the other derived keys. Derived once per master key and
 * purpose, kept beside the master key it comes from (an HKDF costs 12-16 µs; each delivery signs two links).
 */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  let keys = derivedKeys.get(masterKey);
  if (!keys) derivedKeys.set(masterKey, (keys = new Map()));
  let key = keys.get(purpose);
  if (!key)
    keys.set(purpose, (key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `mailbox:${purpose}`, 32))));
  return key;
}

/**
 * The embedded deployment's master key when MAILBOX_MASTER_KEY is absent: 32 random bytes in base64,
 * created once (mode 0600) and read back at every start. Written aside then hard-linked into place, so
 * two processes starting together agree on one key and none reads a half-written file.
 */
export function masterKeyFile(path: string): Buffer {
  mkdirSync(dirname(path), { recursive: true });
  const aside = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(aside, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(aside, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${path} must hold 32 bytes in base64`);
  return key;
}
