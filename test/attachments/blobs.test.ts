/**
 * The blob store's guarantees (docs/contract.md, Decision 10): a blob is durable before a record points to it, a
 * worker killed between the two leaves an orphan blob and no record, and the sweep removes orphans
 * past their grace period while every blob a record points to stays, raw sources included.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { receiveInbound } from '../../actors/inbound.js';
import { SWEEP_GRACE_MS, sweepOrphanBlobs } from '../../actors/attachments.js';
import { blobKey, blobSetMember, sha256Of } from '../../src/blobs/store.js';
import { ManualClock } from '../../src/clock.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { sender } from '../helpers/outbound.js';
import { testRedisTarget } from '../helpers/redis.js';
import { startService } from '../helpers/service.js';
import { CHILD_EXEC_ARGV } from '../helpers/child.js';
import { receivedMail } from '../helpers/mail.js';

t.setTimeout(120_000);
const clock = new ManualClock(Date.now());
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
const target = await testRedisTarget();
const sourceIsBlob = svc.rt.config.blobStore.kind !== 'files';
const child = fileURLToPath(new URL('../helpers/receive-child.ts', import.meta.url));

/** The same store as the service's: its folder, or its bucket and prefix. */
function storeEnv(): Record<string, string> {
  const choice = svc.rt.config.blobStore;
  return choice.kind === 'files'
    ? { MAILBOX_DATA_DIR: svc.rt.config.dataDir }
    : { BLOB_STORE: `s3://${choice.bucket}/${choice.prefix}` };
}

function receiveAndDie(
  s: { spaceId: string; inboxId: string; address: string },
  content: string,
): Promise<string | null> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...CHILD_EXEC_ARGV, child], {
      env: {
        ...process.env,
        ...storeEnv(),
        LOG_LEVEL: 'error',
        CHILD_REDIS_URL: target.url ?? '',
        REDIS_CLUSTER_NODES: target.clusterNodes?.map((n) => `${n.host}:${n.port}`).join(',') ?? '',
        CHILD_SPACE: s.spaceId,
        CHILD_INBOX: s.inboxId,
        CHILD_ADDRESS: s.address,
        CHILD_CONTENT: content,
      },
      stdio: 'inherit',
    });
    proc.on('exit', (_code, signal) => resolve(signal));
  });
}

t.test(
  'a worker killed between the blob write and the Redis write: no record, an orphan blob the sweep removes',
  async (t) => {
    const s = await sender(svc);
    const kept = await receiveInbound(
      svc.rt,
      s.spaceId,
      { id: s.inboxId, address: s.address },
      receivedMail({
        from: 'paul@destinataire.test',
        from_name: 'Paul',
        subject: 'Gardé',
        text: 'Ci-joint.',
        source: Buffer.from('Subject: Gardé\r\n\r\nCi-joint.\r\n'),
        attachments: [
          {
            filename: 'garde.csv',
            content_type: 'text/csv',
            content: Buffer.from('a;b\n'),
            inline: false,
            content_id: null,
          },
        ],
      }),
    );
    const orphan = `orphelin;${randomBytes(8).toString('hex')}\n`;
    t.equal(await receiveAndDie(s, orphan), 'SIGKILL');
    const orphanKey = blobKey(s.spaceId, sha256Of(Buffer.from(orphan)));
    t.same(await svc.rt.ports.blobs.get(orphanKey), Buffer.from(orphan), 'the blob was written');
    const threads = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
    t.same(
      threads.body.items.map((th: { subject: string }) => th.subject),
      ['Gardé'],
      'no record of the killed reception',
    );
    // On the file store a raw source lives in a segment, which the sweep does not see (src/blobs/source-log.ts).
    const blobsKept = sourceIsBlob ? 2 : 1;
    t.equal(await svc.rt.redis.scard(spaceKeys(s.spaceId).blobs), blobsKept, 'only the kept message points to blobs');

    t.equal(await sweepOrphanBlobs(svc.rt), 0, 'a fresh orphan is left alone: its record may be on its way');
    clock.advance(SWEEP_GRACE_MS + 60_000);
    const csv = sha256Of(Buffer.from('a;b\n'));
    t.equal(
      await svc.rt.redis.sismember(spaceKeys(s.spaceId).blobs, blobSetMember(csv)),
      1,
      'the set names the CSV in base64url',
    );
    t.equal(await sweepOrphanBlobs(svc.rt), 1, 'past the grace period the orphan goes');
    t.equal(await svc.rt.ports.blobs.get(orphanKey), null);
    const message = await svc.call(s.apiKey, 'get_message', { message_id: kept.message_id });
    const attachment = await svc.call(s.apiKey, 'get_attachment', {
      message_id: kept.message_id,
      attachment_id: message.body.attachments[0].id,
    });
    t.equal(attachment.body.text, 'a;b', 'a blob a record points to stays');
    t.equal((await svc.rt.ports.blobs.list(s.spaceId)).length, blobsKept);
    const source = await svc.rt.redis.hget(spaceKeys(s.spaceId).message(kept.message_id), 'source');
    t.match(
      (await svc.rt.ports.blobs.getSource(s.spaceId, source!))?.toString(),
      /^Subject: Gardé/,
      'the raw source stays',
    );
  },
);

t.test('the same file received twice is stored once', async (t) => {
  const s = await sender(svc);
  const mail = (subject: string) =>
    receivedMail({
      from: 'paul@destinataire.test',
      from_name: 'Paul',
      subject,
      text: 'Ci-joint.',
      attachments: [
        {
          filename: 'meme.csv',
          content_type: 'text/csv',
          content: Buffer.from('même;contenu\n'),
          inline: false,
          content_id: null,
        },
      ],
    });
  await receiveInbound(svc.rt, s.spaceId, { id: s.inboxId, address: s.address }, mail('Un'));
  await receiveInbound(svc.rt, s.spaceId, { id: s.inboxId, address: s.address }, mail('Deux'));
  t.equal((await svc.rt.ports.blobs.list(s.spaceId)).length, 1);
});

t.test('a raw source is read back by its reference; the same source stored twice is readable twice', async (t) => {
  const { spaceId } = await svc.space();
  const source = Buffer.from(`Message-ID: <${randomBytes(8).toString('hex')}@exemple.test>\r\n\r\nBonjour\r\n`);
  const first = await svc.rt.ports.blobs.putSource(spaceId, source);
  const again = await svc.rt.ports.blobs.putSource(spaceId, source);
  t.same(await svc.rt.ports.blobs.getSource(spaceId, first.ref), source, 'the same bytes');
  t.same(await svc.rt.ports.blobs.getSource(spaceId, again.ref), source, 'the same bytes again');
  if (sourceIsBlob) {
    t.same(again, first, 'an object named by its hash, written twice');
    t.equal(first.blob, first.ref, 'the sweep keeps it by its hash in the set');
  } else {
    t.not(again.ref, first.ref, 'appended twice to a segment');
    t.equal(first.blob, null, 'nothing for the set: the sweep does not see segments');
    t.same(await svc.rt.ports.blobs.list(spaceId), [], 'no blob listed');
  }
});
