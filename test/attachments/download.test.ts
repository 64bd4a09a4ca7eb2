/**
 * The signed download link streams the attachment from the blob store (never whole in memory):
 * a multi-MB file arrives byte for byte with its Content-Length, and a client that goes mid-download
 * frees what the stream held (the open blob file) while the service goes on serving. Runs on the engine
 * HTTP_ENGINE names (`npm run test:node-engine` for node:http) and on S3 with `npm run test:s3`.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { blobKey } from '../../src/blobs/store.js';
import { ManualClock } from '../../src/clock.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startInbound } from '../helpers/inbound.js';
import { recipient, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';

const clock = new ManualClock(Date.now());
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
const inbound = await startInbound(svc);

// Several times what the sockets buffer, so that backpressure pauses the read.
const SIZE = 6 * 1024 * 1024 + 17;
const archive = Buffer.concat([Buffer.from('DATA'), randomBytes(SIZE - 4)]);

/** A received mail carrying the archive; a fresh download link to it and the blob's sha256. */
async function receivedArchive(): Promise<{
  link: () => Promise<string>;
  read: () => Promise<Record<string, unknown>>;
  sha256: string;
  spaceId: string;
}> {
  const s = await sender(svc);
  await inbound.send({
    from: recipient('archives'),
    to: s.address,
    subject: 'Archive',
    text: 'Ci-joint.',
    attachments: [{ filename: 'archive.bin', content: archive, contentType: 'application/octet-stream' }],
  });
  const threads = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  const message = (await svc.call(s.apiKey, 'get_thread', { thread_id: threads.body.items[0].id })).body.messages[0];
  const attachment = message.attachments[0];
  const read = async () =>
    (await svc.call(s.apiKey, 'get_attachment', { message_id: message.id, attachment_id: attachment.id })).body;
  return {
    link: async () => (await read()).download_url as string,
    read,
    sha256: attachment.sha256,
    spaceId: s.spaceId,
  };
}

/** This process's open files on a path (the file store's blob). */
const openOn = (path: string): number =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(join('/proc/self/fd', fd)) === path;
    } catch {
      return false;
    }
  }).length;

t.test('a multi-MB attachment arrives byte for byte, with its Content-Length, as a download', async (t) => {
  const { link } = await receivedArchive();
  const download = await fetch(await link());
  t.equal(download.status, 200);
  t.equal(download.headers.get('content-length'), String(SIZE));
  t.match(download.headers.get('content-disposition'), /^attachment; filename="archive.bin"/);
  const bytes = Buffer.from(await download.arrayBuffer());
  t.equal(bytes.length, SIZE);
  t.ok(bytes.equals(archive), 'the same bytes');
});

t.test('a client gone mid-download: the stream is let go, the service serves the next one', async (t) => {
  const { link, sha256, spaceId } = await receivedArchive();
  const abort = new AbortController();
  const download = await fetch(await link(), { signal: abort.signal });
  const reader = download.body!.getReader();
  const first = await reader.read();
  t.ok(first.value!.byteLength > 0 && first.value!.byteLength < SIZE, 'a first part came');
  abort.abort();
  await reader.read().catch(() => undefined);
  const choice = svc.rt.config.blobStore;
  if (choice.kind === 'files') {
    const path = join(svc.rt.config.dataDir, 'blobs', spaceId, sha256);
    // The service notices the closed socket on its next turns: wait for it, not a fixed time.
    for (let turn = 0; turn < 200 && openOn(path) > 0; turn++) await new Promise((done) => setTimeout(done, 10));
    t.equal(openOn(path), 0, 'the blob file is closed');
  }
  const again = await fetch(await link());
  t.ok(Buffer.from(await again.arrayBuffer()).equals(archive), 'the next download is whole');
});

t.test(
  'get_attachment does not read a large file without text; a blob the store lost fails its download only',
  async (t) => {
    const { read, sha256, spaceId } = await receivedArchive();
    await svc.rt.ports.blobs.remove([blobKey(spaceId, sha256)]);
    const answer = await read();
    t.match(answer, { size: SIZE, text: null, download_url: /\/a\// }, 'answered without the bytes');
    const download = await fetch(answer.download_url as string);
    t.equal(download.status, 500);
    t.match(await download.json(), { error: { code: 'internal' } });
  },
);
