/**
 * Where mail content lives (docs/contract.md, Decision 10): attachments, raw sources and long bodies, outside Redis.
 * One small interface, two adapters (src/blobs/fs.ts, src/blobs/s3.ts), chosen by BLOB_STORE at the
 * composition root; actors reach it through the ports (src/ports.ts), never an adapter directly.
 * A blob is named by its space and the SHA-256 of its bytes, `<space id>/<sha256>`: erasure deletes the
 * space's prefix, and the same file received or forwarded twice is stored once.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface StoredBlob {
  /** `<space id>/<sha256>`. */
  key: string;
  sha256: string;
  size: number;
}

/** A blob being read: its size first (a download's Content-Length), then its bytes as they come. */
export interface BlobStream {
  size: number;
  /** Destroy it when the bytes are no longer wanted (a client gone): that frees the file or connection. */
  body: Readable;
}

export interface ListedBlob {
  key: string;
  /** When it was written (ms): the sweep leaves recent blobs alone, their record may be on its way. */
  writtenAt: number;
}

/** A received message's raw source as stored. */
export interface StoredSource {
  /** What the message's record keeps to read it again (its `source` field). */
  ref: string;
  /** The SHA-256 the space's blob set must name so that the sweep leaves it; null: not a blob the sweep sees. */
  blob: string | null;
}

export interface BlobStore {
  /**
   * Writes the bytes durably (their record may point to them once this resolves); an existing blob is
   * kept, found by a look first.
   */
  put(spaceId: string, bytes: Uint8Array): Promise<StoredBlob>;
  /**
   * Writes a received message's raw source durably. Its own headers make it unique, so no look for an
   * existing copy; the file store appends it to a segment (src/blobs/source-log.ts), S3 writes an object.
   */
  putSource(spaceId: string, bytes: Uint8Array): Promise<StoredSource>;
  /** The raw source a record's `source` names, or null when it is not there. */
  getSource(spaceId: string, ref: string): Promise<Buffer | null>;
  /** The bytes of a blob, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** The bytes of a blob as a stream, never whole in memory (a download), or null when there is none. */
  stream(key: string): Promise<BlobStream | null>;
  /** Every blob of a space. */
  list(spaceId: string): Promise<ListedBlob[]>;
  /** The spaces that hold blobs (the sweep walks them). */
  spaces(): Promise<string[]>;
  remove(keys: string[]): Promise<void>;
  /** Deletes every blob of a space (its erasure). */
  removeSpace(spaceId: string): Promise<void>;
}

/**
 * The first `max` bytes of a blob (all of it when shorter), read from its stream and no further: what
 * an event carries of a long text, without the whole text in memory. Null when there is none.
 */
export async function blobHead(store: BlobStore, key: string, max: number): Promise<Buffer | null> {
  const blob = await store.stream(key);
  if (!blob) return null;
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of blob.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= max) break;
    }
  } finally {
    blob.body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max);
}

/** A file-system error that says the file or folder is not there. */
export const missingFile = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

export const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export const blobKey = (spaceId: string, sha256: string): string => `${spaceId}/${sha256}`;

/** What `put` answers for these bytes of the space. */
export function storedBlob(spaceId: string, bytes: Uint8Array): StoredBlob {
  const sha256 = sha256Of(bytes);
  return { key: blobKey(spaceId, sha256), sha256, size: bytes.byteLength };
}

export const hashOfBlob = (key: string): string => key.slice(key.indexOf('/') + 1);

/**
 * How the space's blob set (keys.blobs) names a blob: its SHA-256 in base64url, 43 characters
 * instead of 64 hex ones: a member of 80 bytes of Redis instead of 112 (BENCHMARKS.md, "Redis memory
 * per message").
 */
export const blobSetMember = (sha256Hex: string): string => Buffer.from(sha256Hex, 'hex').toString('base64url');

/** A space id or a hash: what a blob key may be made of (nothing that walks out of the store). */
export const SAFE_PART = /^[0-9a-z_]+$/;
