/**
 * The default blob store: files under <MAILBOX_DATA_DIR>/blobs/<space id>/<sha256>, for one machine or
 * a shared volume. Written aside, fsync'd, renamed into place, then the folder fsync'd: a blob that
 * `put` returned survives a crash, and no reader ever sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { blobKey, SAFE_PART, sha256Of, type BlobStore, type ListedBlob, type StoredBlob } from './store.js';

const TEMP_SUFFIX = '.tmp';
/** A blob's name or a write's temp name: what `list` gives and `remove` takes. */
const LISTED_NAME = /^[0-9a-z_]+(\.[0-9a-f]+\.tmp)?$/;

const missing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function fileBlobStore(root: string): BlobStore {
  const pathOf = (key: string): string => {
    const [space, hash, ...rest] = key.split('/');
    if (!space || !hash || rest.length || !SAFE_PART.test(space) || !SAFE_PART.test(hash)) throw new Error(`not a blob key: ${key}`);
    return join(root, space, hash);
  };
  return {
    async put(spaceId, bytes): Promise<StoredBlob> {
      const sha256 = sha256Of(bytes);
      const key = blobKey(spaceId, sha256);
      const path = pathOf(key);
      const stored = { key, sha256, size: bytes.byteLength };
      if (await stat(path).then(() => true, () => false)) return stored;
      const dir = join(root, spaceId);
      await mkdir(dir, { recursive: true });
      const aside = `${path}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
      const handle = await open(aside, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(aside, path);
      await fsyncPath(dir);
      return stored;
    },
    async get(key) {
      return readFile(pathOf(key)).catch((error: unknown) => {
        if (missing(error)) return null;
        throw error;
      });
    },
    async stream(key) {
      // One open file for the size and the bytes: a blob is never rewritten, but it may be removed meanwhile.
      const handle = await open(pathOf(key), 'r').catch((error: unknown) => (missing(error) ? null : Promise.reject(error)));
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
      const names = await readdir(dir).catch((error: unknown) => (missing(error) ? [] : Promise.reject(error)));
      const listed: ListedBlob[] = [];
      for (const name of names) {
        // A temp file is a write under way (or a crashed one): the sweep's grace period covers both.
        const info = await stat(join(dir, name)).catch(() => null);
        if (info) listed.push({ key: name.endsWith(TEMP_SUFFIX) ? `${spaceId}/${name}` : blobKey(spaceId, name), writtenAt: info.mtimeMs });
      }
      return listed;
    },
    async spaces() {
      return readdir(root).catch((error: unknown) => (missing(error) ? [] : Promise.reject(error)));
    },
    async remove(keys) {
      for (const key of keys) {
        const [space, name, ...rest] = key.split('/');
        if (!space || !name || rest.length || !SAFE_PART.test(space) || !LISTED_NAME.test(name)) throw new Error(`not a blob key: ${key}`);
        await unlink(join(root, space, name)).catch((error: unknown) => (missing(error) ? undefined : Promise.reject(error)));
      }
    },
    async removeSpace(spaceId) {
      if (!SAFE_PART.test(spaceId)) throw new Error(`not a space id: ${spaceId}`);
      await rm(join(root, spaceId), { recursive: true, force: true });
    },
  };
}
