/**
 * The blob store of a test service: files in a fresh temporary folder by default; with
 * TEST_BLOB_STORE=s3 (`npm run test:s3`), an S3-compatible server (s3rver) on loopback, started once per
 * test process, each service under its own prefix of one bucket.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';

interface S3Server {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}

type S3rverClass = new (options: Record<string, unknown>) => S3Server;
const BUCKET = 'mailbox-test';

export const testingS3 = (): boolean => process.env.TEST_BLOB_STORE === 's3';

let s3: Promise<void> | null = null;

function startS3(): Promise<void> {
  return (s3 ??= (async () => {
    // Loaded here, not at the top: s3rver and its koa cost a third of a second of CPU in each test process.
    const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
    const directory = mkdtempSync(join(tmpdir(), 'mbx-s3-'));
    const server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await server.run();
    // The adapter reads the usual AWS variables (src/blobs/s3.ts).
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    });
    t.teardown(async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    });
  })());
}

/** The environment that gives a service its own, empty blob store. */
export async function blobStoreEnv(): Promise<Record<string, string>> {
  if (testingS3()) {
    await startS3();
    return { BLOB_STORE: `s3://${BUCKET}/${randomBytes(6).toString('hex')}` };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'mbx-data-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  return { MAILBOX_DATA_DIR: dataDir };
}
