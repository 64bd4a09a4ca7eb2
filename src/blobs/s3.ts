/**
 * The blob store on any S3-compatible service, `BLOB_STORE=s3://bucket/prefix`, for front ends on
 * several machines. Endpoint, region and credentials come from the usual AWS variables
 * (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID...); with an explicit endpoint
 * (MinIO, Ceph, a test server) bucket names go in the path. A PutObject is durable once acknowledged.
 */
import type { Readable } from 'node:stream';
import { blobKey, storedBlob, type BlobStore, type ListedBlob, type StoredBlob } from './store.js';

export interface S3Location {
  bucket: string;
  /** '' or ending with '/'. */
  prefix: string;
}

/** S3 deletes at most this many keys per request. */
const DELETE_BATCH = 1000;

const notFound = (error: unknown): boolean => {
  const name = (error as { name?: string }).name;
  return name === 'NoSuchKey' || name === 'NotFound';
};

export function s3BlobStore(location: S3Location, env: Record<string, string | undefined> = process.env): BlobStore {
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  // The SDK is loaded when the store is first used, not with the module: a process on the file store
  // (the default, and every test process) would spend a fifth of a second of CPU loading it for nothing.
  let loaded:
    Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: import('@aws-sdk/client-s3').S3Client }> | undefined;
  const s3 = () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint,
        forcePathStyle: Boolean(endpoint),
        region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
      }),
    })));
  const { bucket, prefix } = location;

  const keysUnder = async (under: string, delimiter?: string): Promise<{ keys: ListedBlob[]; folders: string[] }> => {
    const keys: ListedBlob[] = [];
    const folders: string[] = [];
    const { sdk, client } = await s3();
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: under, Delimiter: delimiter, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? [])
        keys.push({ key: object.Key!.slice(prefix.length), writtenAt: object.LastModified?.getTime() ?? 0 });
      for (const folder of page.CommonPrefixes ?? []) folders.push(folder.Prefix!.slice(under.length, -1));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return { keys, folders };
  };

  const write = async (key: string, bytes: Uint8Array) => {
    const { sdk, client } = await s3();
    await client.send(
      new sdk.PutObjectCommand({ Bucket: bucket, Key: prefix + key, Body: bytes, ContentLength: bytes.byteLength }),
    );
  };

  const get = async (key: string): Promise<Buffer | null> => {
    const { sdk, client } = await s3();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: prefix + key }));
      return Buffer.from(await object.Body!.transformToByteArray());
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  };

  const removeKeys = async (keys: string[]) => {
    const { sdk, client } = await s3();
    for (let at = 0; at < keys.length; at += DELETE_BATCH) {
      const batch = keys.slice(at, at + DELETE_BATCH).map((key) => ({ Key: prefix + key }));
      await client.send(new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch, Quiet: true } }));
    }
  };

  return {
    async put(spaceId, bytes): Promise<StoredBlob> {
      const { sdk, client } = await s3();
      const stored = storedBlob(spaceId, bytes);
      const exists = await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: prefix + stored.key })).then(
        () => true,
        (error: unknown) => (notFound(error) ? false : Promise.reject(error)),
      );
      if (!exists) await write(stored.key, bytes);
      return stored;
    },
    async putSource(spaceId, bytes) {
      const { key, sha256 } = storedBlob(spaceId, bytes);
      await write(key, bytes);
      return { ref: sha256, blob: sha256 };
    },
    async getSource(spaceId, ref) {
      return get(blobKey(spaceId, ref));
    },
    get,
    async stream(key) {
      const { sdk, client } = await s3();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: prefix + key }));
        // On Node the SDK's body is the HTTP response itself, read as it arrives.
        return { size: object.ContentLength!, body: object.Body as Readable };
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async list(spaceId) {
      return (await keysUnder(`${prefix}${spaceId}/`)).keys;
    },
    async spaces() {
      return (await keysUnder(prefix, '/')).folders;
    },
    remove: removeKeys,
    async removeSpace(spaceId) {
      await removeKeys((await keysUnder(`${prefix}${spaceId}/`)).keys.map((blob) => blob.key));
    },
  };
}
