import { join } from 'node:path';
import type { Config } from '../config.js';
import { fileBlobStore } from './fs.js';
import { s3BlobStore } from './s3.js';
import type { BlobStore } from './store.js';

/** The store BLOB_STORE names (docs/contract.md, Decision 10); the composition root wires it into the ports. */
export function openBlobStore(config: Config): BlobStore {
  const choice = config.blobStore;
  return choice.kind === 's3' ? s3BlobStore(choice) : fileBlobStore(join(config.dataDir, 'blobs'));
}
