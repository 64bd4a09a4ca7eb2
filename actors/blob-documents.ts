/**
 * The documents of history (a thread's, actors/history-records.ts; a journal day's,
 * actors/journal-days.ts): gzipped JSON blobs named by their SHA-256, so immutable. Each process keeps
 * the ones it read lately, up to HISTORY_CACHE_MB in all, so that paging through a thread or a day
 * reads its blob once. A leaf of the actors.
 */
import { gunzipSync } from 'node:zlib';
import { blobKey } from '../src/blobs/store.js';
import type { Runtime } from '../src/runtime.js';

/** The blob key of a document from the SHA-256 that names it in Redis (base64url, as the space's blob set names it). */
const documentKey = (spaceId: string, ref: string): string =>
  blobKey(spaceId, Buffer.from(ref, 'base64url').toString('hex'));

/** Documents read lately, most recent last, with what they weigh (their JSON's length, about their size in memory). */
const cached = new Map<string, { document: unknown; weight: number }>();
let cachedWeight = 0;

/** A document of the space, from the cache or the blob store; it must be there while a record names it. */
export async function readBlobDocument<T>(rt: Runtime, spaceId: string, ref: string): Promise<T> {
  const key = documentKey(spaceId, ref);
  const hit = cached.get(key);
  if (hit) {
    cached.delete(key);
    cached.set(key, hit);
    return hit.document as T;
  }
  const bytes = await rt.ports.blobs.get(key);
  if (!bytes) throw new Error(`the history document ${key} is missing from the blob store`);
  const text = gunzipSync(bytes).toString('utf8');
  const document = JSON.parse(text) as T;
  const weight = text.length;
  if (weight <= rt.config.history.cacheBytes) {
    cached.set(key, { document, weight });
    cachedWeight += weight;
    for (const [oldest, { weight: dropped }] of cached) {
      if (cachedWeight <= rt.config.history.cacheBytes) break;
      cached.delete(oldest);
      cachedWeight -= dropped;
    }
  }
  return document;
}
