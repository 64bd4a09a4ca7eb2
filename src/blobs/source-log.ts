/**
 * Raw sources of received mail on the file store, in append-only segments instead of a file each
 * (docs/operations.md, "Blob store"). Each process keeps one open segment a space,
 * `<root>/<space id>/log_<process tag>_<n>`; the sources its sessions hand in while a sync runs are
 * written together (one `writev`) and made durable by one `fdatasync` (group commit), and each
 * `append` resolves once its bytes are on disk. A record names its source `<segment>:<offset>:<length>`.
 * A file a message cost a create, a rename and the folder's sync each (BENCHMARKS.md, "Raw sources").
 * Segments live in the space's folder, so its erasure still removes them with the rest; nothing else
 * removes a source (no tool deletes a received message), so a segment is never rewritten. A process
 * never appends to another's segment: a crash leaves, at most, a torn tail nobody points to.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { missingFile, SAFE_PART } from './store.js';

export interface SegmentLimits {
  /** A segment takes no new source past this size; the next opens another. */
  maxBytes: number;
  /** A segment nobody appended to for this long is closed (its file stays). */
  idleMs: number;
  /** Open segments a process keeps at most (file descriptors): past it, the least recently written idle one closes. */
  openMax: number;
}

export const SEGMENT_LIMITS: SegmentLimits = { maxBytes: 64 * 1024 * 1024, idleMs: 30_000, openMax: 512 };

/** Segment names: what `list` leaves out (they are not blobs the sweep may remove). */
const SEGMENT = 'log_[0-9a-z]+_[0-9]+';
export const SEGMENT_NAME = new RegExp(`^${SEGMENT}$`);
/** `<segment>:<offset>:<length>`. */
const SOURCE_REF = new RegExp(`^(${SEGMENT}):([0-9]+):([0-9]+)$`);

interface Waiting {
  bytes: Uint8Array;
  offset: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Segment {
  space: string;
  name: string;
  /** Opened, and its folder entry durable. */
  handle: Promise<FileHandle>;
  /** Bytes handed out: the next source's offset. */
  size: number;
  waiting: Waiting[];
  flushing: Promise<void> | null;
  idle: NodeJS.Timeout | null;
}

export interface SourceLog {
  /** Appends a source; resolves with its reference once it is durable. */
  append(spaceId: string, bytes: Uint8Array): Promise<string>;
  /** The bytes a reference names, or null when its segment (or that part of it) is not there. */
  read(spaceId: string, ref: string): Promise<Buffer | null>;
  /** Whether a record's `source` is a segment reference (else a blob's SHA-256). */
  names(ref: string): boolean;
  /** Closes the space's segment in this process (its erasure removes the folder next). */
  forget(spaceId: string): Promise<void>;
}

/**
 * `syncFolder` makes a new segment's folder entry durable (the store's shared folder sync): after it,
 * only the segment's own `fdatasync` stands between an append and the disk.
 */
export function sourceLog(
  root: string,
  syncFolder: (path: string) => Promise<void>,
  limits: SegmentLimits = SEGMENT_LIMITS,
): SourceLog {
  const tag = randomBytes(6).toString('hex');
  let opened = 0;
  /** The open segment of each space, least recently written first. */
  const segments = new Map<string, Segment>();

  const createSegment = async (dir: string, name: string): Promise<FileHandle> => {
    const create = () => open(join(dir, name), 'wx', 0o600);
    const handle = await create().catch(async (error: unknown) =>
      missingFile(error) ? (await mkdir(dir, { recursive: true }), create()) : Promise.reject(error),
    );
    try {
      await syncFolder(dir);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  };

  /** Takes the segment out of use; its file closes once what it holds is written. */
  const retire = (segment: Segment): Promise<void> => {
    if (segments.get(segment.space) === segment) segments.delete(segment.space);
    if (segment.idle) clearTimeout(segment.idle);
    const closed = (async () => {
      while (segment.flushing) await segment.flushing;
      await (await segment.handle).close();
    })();
    return closed.catch(() => undefined);
  };

  const segmentFor = (space: string, length: number): Segment => {
    const current = segments.get(space);
    if (current && (current.size === 0 || current.size + length <= limits.maxBytes)) {
      segments.delete(space);
      segments.set(space, current);
      return current;
    }
    if (current) void retire(current);
    if (segments.size >= limits.openMax) {
      const idle = [...segments.values()].find((segment) => !segment.flushing && !segment.waiting.length);
      if (idle) void retire(idle);
    }
    const name = `log_${tag}_${++opened}`;
    const handle = createSegment(join(root, space), name);
    const segment: Segment = { space, name, handle, size: 0, waiting: [], flushing: null, idle: null };
    // A segment that could not be created is dropped: the next append tries a new one.
    handle.catch(() => segments.get(space) === segment && segments.delete(space));
    segments.set(space, segment);
    return segment;
  };

  const writeAll = async (handle: FileHandle, batch: Waiting[]): Promise<void> => {
    let position = batch[0]!.offset;
    let buffers = batch.map((entry) => entry.bytes);
    for (;;) {
      const { bytesWritten } = await handle.writev(buffers, position);
      position += bytesWritten;
      let skip = bytesWritten;
      while (buffers.length && skip >= buffers[0]!.byteLength) skip -= buffers.shift()!.byteLength;
      if (!buffers.length) return;
      buffers = [buffers[0]!.subarray(skip), ...buffers.slice(1)];
    }
  };

  const flush = (segment: Segment): void => {
    if (segment.flushing) return; // the running flush takes what came meanwhile when it ends
    segment.flushing = (async () => {
      while (segment.waiting.length) {
        const batch = segment.waiting.splice(0);
        try {
          const handle = await segment.handle;
          await writeAll(handle, batch);
          await handle.datasync();
          for (const entry of batch) entry.resolve();
        } catch (error) {
          for (const entry of batch) entry.reject(error);
          // Its tail is unknown now: later sources go to a new segment, and this one closes once it has
          // written what was handed to it already.
          void retire(segment);
        }
      }
      segment.flushing = null;
      if (segments.get(segment.space) !== segment) return;
      segment.idle ??= setTimeout(() => void retire(segment), limits.idleMs).unref();
      segment.idle.refresh();
    })();
  };

  return {
    append(spaceId, bytes) {
      if (!SAFE_PART.test(spaceId)) return Promise.reject(new Error(`not a space id: ${spaceId}`));
      const segment = segmentFor(spaceId, bytes.byteLength);
      const offset = segment.size;
      segment.size += bytes.byteLength;
      return new Promise<string>((resolve, reject) => {
        segment.waiting.push({
          bytes,
          offset,
          resolve: () => resolve(`${segment.name}:${offset}:${bytes.byteLength}`),
          reject,
        });
        flush(segment);
      });
    },
    async read(spaceId, ref) {
      const parts = SOURCE_REF.exec(ref);
      if (!parts || !SAFE_PART.test(spaceId)) throw new Error(`not a source reference: ${spaceId} ${ref}`);
      const [, name, offset, length] = parts;
      const handle = await open(join(root, spaceId, name!), 'r').catch((error: unknown) =>
        missingFile(error) ? null : Promise.reject(error),
      );
      if (!handle) return null;
      try {
        const bytes = Buffer.alloc(Number(length));
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, Number(offset));
        return bytesRead === bytes.length ? bytes : null;
      } finally {
        await handle.close();
      }
    },
    names: (ref) => SOURCE_REF.test(ref),
    async forget(spaceId) {
      const segment = segments.get(spaceId);
      if (segment) await retire(segment);
    },
  };
}
