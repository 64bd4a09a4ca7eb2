/**
 * Standard Webhooks signatures (docs/contract.md, Decision 5): `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">`, keyed by the bytes of the secret's base64 part. The same three values also
 * go under the `svix-` names, so Svix verifiers work unchanged (docs/contract.md, Decision 9).
 */
import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../secrets.js';

/** The HMAC key of a `whsec_...` secret. */
export const signingKey = (secret: string): Buffer => Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');

function signature(key: Buffer, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The headers of one delivery: the envelope's evt id, the time of sending in seconds, the signature. */
export function signedHeaders(key: Buffer, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const signed = signature(key, id, timestampSeconds, body);
  const timestamp = String(timestampSeconds);
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signed,
    'svix-id': id,
    'svix-timestamp': timestamp,
    'svix-signature': signed,
  };
}
