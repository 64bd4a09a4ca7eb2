/**
 * The default blob store: files under <MAILBOX_DATA_DIR>/blobs/<space id>/<sha256>, for one machine or
 * a shared volume. Written aside with O_DSYNC (the write returns once the bytes are on disk), renamed
 * into place, then the folder fsync'd: a blob that `put` returned survives a crash, and no reader ever
 * sees half a file. Every received message writes its source here, so a put costs few file-system
 * calls (each a round trip to libuv's thread pool): the folder is created once per process, and the
 * puts of one folder that wait for its fsync at the same time share one (BENCHMARKS.md, "Receiving").
 */
import { close, constants, fstat, open as openFd, read } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SEGMENT_NAME, sourceLog } from './source-log.js';
import {
  blobKey,
  missingFile,
  SAFE_PART,
  storedBlob,
  type BlobStore,
  type ListedBlob,
  type StoredBlob,
} from './store.js';

const TEMP_SUFFIX = '.tmp';
/** A blob's name or a write's temp name: what `list` gives and `remove` takes. */
const LISTED_NAME = /^[0-9a-z_]+(\.[0-9a-f]+\.tmp)?$/;

/** Create-only, and durable when the write returns: no separate fsync of the file. */
const WRITE_DURABLY = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_DSYNC;

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Bytes a read asks for first: a history document, a message's source, most attachments. */
const FIRST_READ = 64 * 1024;

/**
 * A file's bytes. A small one costs two calls to libuv's thread pool, open and one read (the close is
 * not waited for), where `readFile` makes four (open, fstat, read, close): each is a wait on the pool
 * and work for the event loop (BENCHMARKS.md, "Reading a blob"). A larger one costs as many as
 * `readFile`'s: its size asked once the first read came back full, then the rest read.
 */
async function readWhole(path: string): Promise<Buffer> {
  const fd = await new Promise<number>((resolve, reject) =>
    openFd(path, 'r', (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  try {
    const first = Buffer.allocUnsafe(FIRST_READ);
    const got = await readAt(fd, first, 0);
    // Copied out: the first read's buffer is not kept for a small blob.
    if (got < FIRST_READ) return Buffer.from(first.subarray(0, got));
    const size = await new Promise<number>((resolve, reject) =>
      fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats.size))),
    );
    const whole = Buffer.allocUnsafe(Math.max(size, FIRST_READ));
    first.copy(whole);
    let length = FIRST_READ;
    while (length < whole.length) {
      const n = await readAt(fd, whole, length);
      if (n === 0) break;
      length += n;
    }
    return whole.subarray(0, length);
  } finally {
    close(fd, () => {});
  }
}

/** Reads into `buffer` from `offset` (the same offset in the file) to its end: the bytes read. */
const readAt = (fd: number, buffer: Buffer, offset: number): Promise<number> =>
  new Promise((resolve, reject) =>
    read(fd, buffer, offset, buffer.length - offset, offset, (error, n) => (error ? reject(error) : resolve(n))),
  );

/**
 * `sync` for a folder, shared: a caller that comes while the folder's sync runs waits for the next
 * one, which starts once that one ends (so after the caller's rename) and serves every caller that
 * came meanwhile.
 */
export function sharedSync(sync: (path: string) => Promise<void>): (path: string) => Promise<void> {
  const running = new Map<string, Promise<void>>();
  const next = new Map<string, Promise<void>>();
  return (path) => {
    const joined = next.get(path);
    if (joined) return joined;
    const start = (): Promise<void> => {
      next.delete(path);
      const run = sync(path);
      running.set(path, run);
      const done = () => void (running.get(path) === run && running.delete(path));
      run.then(done, done);
      return run;
    };
    const ahead = running.get(path);
    const mine = ahead ? ahead.then(start, start) : Promise.resolve().then(start);
    next.set(path, mine);
    return mine;
  };
}

export function fileBlobStore(root: string): BlobStore {
  const syncFolder = sharedSync(fsyncPath);
  const sources = sourceLog(root, syncFolder);
  /** Folders this process created or found: removeSpace forgets its own. */
  const folders = new Set<string>();
  const pathOf = (key: string): string => {
    const [space, hash, ...rest] = key.split('/');
    if (!space || !hash || rest.length || !SAFE_PART.test(space) || !SAFE_PART.test(hash))
      throw new Error(`not a blob key: ${key}`);
    return join(root, space, hash);
  };
  const get = (key: string): Promise<Buffer | null> =>
    readWhole(pathOf(key)).catch((error: unknown) => (missingFile(error) ? null : Promise.reject(error)));
  return {
    async put(spaceId, bytes): Promise<StoredBlob> {
      const stored = storedBlob(spaceId, bytes);
      const path = pathOf(stored.key);
      if (
        await stat(path).then(
          () => true,
          () => false,
        )
      )
        return stored;
      const dir = join(root, spaceId);
      const aside = `${path}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
      const write = () => writeFile(aside, bytes, { flag: WRITE_DURABLY, mode: 0o600 });
      if (folders.has(dir)) {
        // Erased by another process since (a space's erasure): created again.
        await write().catch(async (error: unknown) =>
          missingFile(error) ? (await mkdir(dir, { recursive: true }), write()) : Promise.reject(error),
        );
      } else {
        await mkdir(dir, { recursive: true });
        folders.add(dir);
        await write();
      }
      await rename(aside, path);
      await syncFolder(dir);
      return stored;
    },
    async putSource(spaceId, bytes) {
      return { ref: await sources.append(spaceId, bytes), blob: null };
    },
    async getSource(spaceId, ref) {
      return sources.names(ref) ? sources.read(spaceId, ref) : get(blobKey(spaceId, ref));
    },
    get,
    async stream(key) {
      // One open file for the size and the bytes: a blob is never rewritten, but it may be removed meanwhile.
      const handle = await open(pathOf(key), 'r').catch((error: unknown) =>
        missingFile(error) ? null : Promise.reject(error),
      );
      if (!handle) return null;
      try {
        const { size } = await handle.stat();
        return { size, body: handle.createReadStream() };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    async list(spaceId) {
      const dir = join(root, spaceId);
      const names = await readdir(dir).catch((error: unknown) => (missingFile(error) ? [] : Promise.reject(error)));
      const listed: ListedBlob[] = [];
      for (const name of names) {
        if (SEGMENT_NAME.test(name)) continue; // raw sources, not blobs a record names by hash
        // A temp file is a write under way (or a crashed one): the sweep's grace period covers both.
        const info = await stat(join(dir, name)).catch(() => null);
        if (info)
          listed.push({
            key: name.endsWith(TEMP_SUFFIX) ? `${spaceId}/${name}` : blobKey(spaceId, name),
            writtenAt: info.mtimeMs,
          });
      }
      return listed;
    },
    async spaces() {
      return readdir(root).catch((error: unknown) => (missingFile(error) ? [] : Promise.reject(error)));
    },
    async remove(keys) {
      for (const key of keys) {
        const [space, name, ...rest] = key.split('/');
        if (!space || !name || rest.length || !SAFE_PART.test(space) || !LISTED_NAME.test(name))
          throw new Error(`not a blob key: ${key}`);
        await unlink(join(root, space, name)).catch((error: unknown) =>
          missingFile(error) ? undefined : Promise.reject(error),
        );
      }
    },
    async removeSpace(spaceId) {
      if (!SAFE_PART.test(spaceId)) throw new Error(`not a space id: ${spaceId}`);
      folders.delete(join(root, spaceId));
      await sources.forget(spaceId);
      await rm(join(root, spaceId), { recursive: true, force: true });
    },
  };
}
