/**
 * The delivery guarantee (docs/operations.md), checked against what a real peer MTA received: a worker
 * process dies at each step of a delivery, a new worker takes over once the lease expires, and no
 * queued message is lost; it is received twice only when the worker died after the peer's 250.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { transportFor } from '../../src/delivery/transports.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { sweep } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, sender } from '../helpers/outbound.js';
import { testRedisTarget } from '../helpers/redis.js';
import { startService } from '../helpers/service.js';
import { startPeer } from '../helpers/smtp-peer.js';
import { CHILD_EXEC_ARGV } from '../helpers/child.js';

let onDataStart: (() => void) | null = null;
const peer = await startPeer({ starttls: false, onDataStart: () => onDataStart?.() });
// Each case starts worker processes; on a loaded machine their starts alone can pass tap's 120 s.
t.setTimeout(300_000);
/** The Message-ID headers of what the peer received. */
const receivedIds = () => peer.received.map((m) => /^Message-ID: (.*)$/im.exec(m.raw.toString())?.[1]?.trim() ?? '?');

const clock = new ManualClock(Date.now());
const env = {
  MAILBOX_MASTER_KEY: MASTER_KEY,
  OUTBOUND: `smtp://127.0.0.1:${peer.port}`,
  SEND_WINDOW: 'always',
  SPACING_SECONDS: '0',
};
const svc = await startService({ clock, env });
const target = await testRedisTarget();
const child = fileURLToPath(new URL('../helpers/deliver-child.ts', import.meta.url));

function runChild(spaceId: string, inboxId: string, fault: string | null, killOnData: boolean): Promise<number | null> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...CHILD_EXEC_ARGV, child], {
      env: {
        ...process.env,
        ...env,
        LOG_LEVEL: 'error',
        CHILD_REDIS_URL: target.url ?? '',
        REDIS_CLUSTER_NODES: target.clusterNodes?.map((n) => `${n.host}:${n.port}`).join(',') ?? '',
        CHILD_SPACE: spaceId,
        CHILD_INBOX: inboxId,
        MAILBOX_FAULT_AT: fault ?? '',
      },
      stdio: 'inherit',
    });
    onDataStart = killOnData ? () => proc.kill('SIGKILL') : null;
    proc.on('exit', (code) => resolve(code));
  });
}

const steps = [
  { name: 'before connect', fault: 'before_connect', killOnData: false, copies: 1 },
  { name: 'mid-DATA', fault: null, killOnData: true, copies: 1 },
  { name: "after the peer's 250, before the status is written", fault: 'after_accept', killOnData: false, copies: 2 },
];

for (const step of steps) {
  t.test(`a worker killed ${step.name}`, async (t) => {
    peer.received.length = 0;
    clock.set(Date.now());
    const s = await sender(svc);
    const res = await svc.call(s.apiKey, 'send_email', {
      inbox_id: s.inboxId,
      to: recipient(),
      subject: 'Crash',
      text: 'Bonjour',
    });
    t.equal(res.status, 200);
    const header = `<${res.body.message.id}@${s.domain}>`;
    const code = await runChild(s.spaceId, s.inboxId, step.fault, step.killOnData);
    t.not(code, 0, 'the first worker died');
    const status = () => svc.rt.redis.hget(spaceKeys(s.spaceId).message(res.body.message.id), 'status');
    t.equal(await status(), 'sending', 'left in flight');
    clock.set(Date.now() + svc.rt.config.deliveryLeaseMs + 60_000); // past the lease the dead worker took on the system clock
    await sweep(svc.rt, transportFor(svc.rt), [s.spaceId]);
    t.equal(await status(), 'sent', 'a new worker finished it');
    t.equal(
      receivedIds().filter((id) => id === header).length,
      step.copies,
      `the peer received it ${step.copies} time(s)`,
    );
  });
}
