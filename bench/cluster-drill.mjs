// The cluster drill (bench/drills.sh runs it; figures in docs/operations.md, "Redis Cluster failover"):
// a 6-node Redis Cluster (3 primaries, 3 replicas, node-timeout 2 s, append-only) from the same
// binaries and start-up code as `npm run test:cluster`, two `serve --role http` front ends and one
// `serve --role worker` relaying to a counting SMTP sink in this process. Paced send_email calls with
// idempotency keys, from several spaces spread over the primaries, each failed call retried with the
// same key on the other front end; kill -9 of the primary holding the most spaces, then of a replica
// of another primary, then the restart of the killed node. Counts acknowledged, stored, delivered,
// lost and duplicated messages, the error window of each space (on the failing node or not), the
// promotion time and when deliveries came back to their rate. `--smoke`: shorter, judges no timing.
// Exit 1 when an acknowledged message is lost or undelivered, or a copy is duplicated outside the
// window: the messages in flight when it is read, just before the kill, and the killed primary's
// spaces' messages first delivered from that read to the promotion (taken after the read, or their
// outcome written by the killed primary but not yet replicated: Redis replicates asynchronously).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import calculateSlot from 'cluster-key-slot';
import { Redis } from 'ioredis';
import { nodeArgs, startCluster } from '../test/helpers/cluster.mjs';
import { ManualClock } from '../dist/src/clock.js';
import { loadConfig } from '../dist/src/config.js';
import { createRuntime } from '../dist/src/runtime.js';
import { authenticate, createSpace } from '../dist/actors/space.js';
import { createInbox } from '../dist/actors/inbox.js';
import { spaceKeys, spaceTag } from '../dist/src/redis/keys.js';
import { freePort, processGroup, startSink } from './lib.mjs';

const smoke = process.argv.includes('--smoke');
const run = process.env.DRILLS_RUN ?? mkdtempSync('/tmp/mailbox-cluster-drill-');
const SPACES = 12;
/** Each space's client sends one message every PACE_MS (closed loop when slower): about 60 a second in all. */
const PACE_MS = 200;
const NODE_TIMEOUT_MS = 2000;
const LEASE_MS = 5000;
const PHASES = smoke
  ? { beforeKill: 4000, promotedToReplicaKill: 2000, replicaKillToRestart: 2000, after: 4000 }
  : { beforeKill: 15_000, promotedToReplicaKill: 10_000, replicaKillToRestart: 5000, after: 15_000 };
const DRAIN_MS = 60_000;
const CALL_DEADLINE_MS = 30_000;

const { procs, start, stop } = processGroup(run);
async function until(what, check, ms = 30_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`${what}: not within ${ms} ms`);
}

/** One send_email until answered 200, retried with the same key; each failure's time goes to `errors`. */
async function sendOne(fronts, auth, body, errors) {
  const end = Date.now() + CALL_DEADLINE_MS;
  for (let attempt = 0; ; attempt++) {
    const sentAt = Date.now();
    let failure;
    try {
      const res = await fetch(`http://127.0.0.1:${fronts[attempt % fronts.length]}/v1/send_email`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
      const answer = await res.json();
      if (res.status === 200) return { id: answer.message.id, ms: Date.now() - sentAt };
      failure = `${res.status} ${answer.error?.code ?? ''}`;
    } catch (error) {
      failure = error.cause?.code ?? error.name;
    }
    errors.push({ at: sentAt, until: Date.now(), failure });
    if (Date.now() > end) return { failure };
    await sleep(200);
  }
}

/** The node id, port and role of every node a live node knows, from CLUSTER NODES. */
async function clusterNodes(ports) {
  for (const port of ports) {
    const client = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 500,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      const text = String(await client.call('CLUSTER', 'NODES'));
      return text
        .trim()
        .split('\n')
        .map((line) => {
          const [id, address, flags, primaryId, , , , state, ...slots] = line.split(' ');
          return {
            id,
            port: Number(address.split(':')[1].split('@')[0]),
            flags: flags.split(','),
            primaryId,
            state,
            slots,
          };
        });
    } catch {
      // That node is down: ask the next.
    } finally {
      client.disconnect();
    }
  }
  throw new Error('no node of the cluster answers');
}

/** Which primary port holds each slot range. */
function slotOwner(nodes, slot) {
  for (const node of nodes.filter((n) => n.flags.includes('master'))) {
    for (const range of node.slots) {
      const [from, to = from] = range.split('-').map(Number);
      if (slot >= from && slot <= to) return node;
    }
  }
  return null;
}

const rows = {};
let code = 0;
const cluster = await startCluster({
  dir: join(run, 'cluster'),
  replicas: 1,
  appendonly: true,
  nodeTimeoutMs: NODE_TIMEOUT_MS,
});
const ports = cluster.nodes.map((n) => n.port);
const nodesEnv = cluster.nodes.map((n) => `${n.host}:${n.port}`).join(',');
const sink = await startSink();
const httpPorts = [await freePort(), await freePort()];
const env = {
  REDIS_CLUSTER_NODES: nodesEnv,
  REDIS_URL: '',
  MAILBOX_DATA_DIR: run,
  OUTBOUND: `smtp://127.0.0.1:${sink.port}`,
  DELIVERY_LEASE_MS: String(LEASE_MS),
};
const cleanup = async () => {
  await Promise.all([...procs.values()].map((child) => stop(child)));
  await cluster.stop().catch(() => {});
  sink.server.close();
};
process.on('SIGTERM', () => cleanup().then(() => process.exit(143)));
process.on('SIGINT', () => cleanup().then(() => process.exit(130)));

try {
  for (const [i, port] of httpPorts.entries())
    start(`http${i}`, process.execPath, ['bin/mailbox.js', 'serve', '--role', 'http'], { ...env, PORT: String(port) });
  start('worker', process.execPath, ['bin/mailbox.js', 'serve', '--role', 'worker'], env);
  for (const port of httpPorts)
    await until('front end', async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok);

  // The spaces, made as bench/seed.mjs makes its one: a test send to the space's human from a warm inbox.
  const config = loadConfig({ ...process.env, ...env });
  const rt = createRuntime(config, { clock: new ManualClock(Date.now() - 40 * 24 * 3600 * 1000) });
  const spaces = [];
  for (let i = 0; i < SPACES; i++) {
    const human = `humain${i}@bench.test`;
    const space = await createSpace(rt, { human, plan: 'bench', verified: true });
    const inbox = await createInbox(rt, await authenticate(rt, space.api_key), {
      username: `drill-${i}-${Date.now().toString(36)}`,
      domain: config.commonDomain,
      shared: true,
      display_name: 'Banc',
    });
    spaces.push({
      id: space.space_id,
      auth: `Bearer ${space.api_key}`,
      body: { inbox_id: inbox.id, to: human, subject: 'Exercice', text: 'Bonjour,\nun exercice.\n', test: true },
      acked: new Map(),
      errors: [],
    });
  }
  const redis = rt.redis;

  const before = await clusterNodes(ports);
  for (const space of spaces) space.node = slotOwner(before, calculateSlot(spaceTag(space.id))).port;
  const counts = new Map();
  for (const space of spaces) counts.set(space.node, (counts.get(space.node) ?? 0) + 1);
  const [victimPort] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  const victim = before.find((n) => n.port === victimPort);
  const victimIndex = ports.indexOf(victimPort);

  let loading = true;
  let sent = 0;
  const client = async (space) => {
    for (let i = 0; loading; i++) {
      const began = Date.now();
      const body = { ...space.body, idempotency_key: `${space.id}-${i}` };
      const answer = await sendOne(i % 2 ? httpPorts : [...httpPorts].reverse(), space.auth, body, space.errors);
      sent++;
      if (answer.id) space.acked.set(body.idempotency_key, answer.id);
      await sleep(Math.max(0, PACE_MS - (Date.now() - began)));
    }
  };
  const loadStarted = Date.now();
  const load = Promise.all(spaces.map(client));

  await sleep(PHASES.beforeKill);
  // The messages in flight at the kill: a copy of one may be at the sink before its outcome is written.
  const windowReadAt = Date.now();
  const window = new Set();
  for (const space of spaces) for (const id of await redis.zrange(spaceKeys(space.id).sending, 0, -1)) window.add(id);
  const killedAt = Date.now();
  cluster.servers[victimIndex].child.kill('SIGKILL');
  const victimReplicas = new Set(before.filter((n) => n.primaryId === victim.id).map((n) => n.id));
  await until(
    'a replica promoted',
    async () =>
      (await clusterNodes(ports.filter((p) => p !== victimPort))).some(
        (n) => victimReplicas.has(n.id) && n.flags.includes('master'),
      ),
    30_000,
  );
  const promotedAt = Date.now();

  await sleep(PHASES.promotedToReplicaKill);
  const now = await clusterNodes(ports.filter((p) => p !== victimPort));
  const replica = now.find((n) => n.flags.includes('slave') && n.primaryId !== victim.id && !n.flags.includes('fail'));
  const replicaIndex = ports.indexOf(replica.port);
  const replicaKilledAt = Date.now();
  cluster.servers[replicaIndex].child.kill('SIGKILL');
  await sleep(PHASES.replicaKillToRestart);
  const restartedAt = Date.now();
  const restarted = spawn(
    'redis-server',
    nodeArgs(join(run, 'cluster'), victimPort, { appendonly: true, nodeTimeoutMs: NODE_TIMEOUT_MS }),
    { stdio: 'ignore' },
  );
  procs.set('restarted-node', restarted);
  await sleep(PHASES.after);
  loading = false;
  await load;
  const loadEnded = Date.now();

  // The drain: every acknowledged message delivered, or DRAIN_MS passed.
  const all = spaces.flatMap((space) => [...space.acked.values()]);
  await until('drain', async () => all.every((id) => sink.copies.has(id)), DRAIN_MS).catch(() => {});
  await sleep(500);

  let stored = 0;
  for (const space of spaces)
    for (const id of space.acked.values()) stored += await redis.exists(spaceKeys(space.id).message(id));
  const duplicates = all.filter((id) => (sink.copies.get(id)?.length ?? 0) > 1);
  const onVictim = (space) => space.node === victimPort;
  const victimMessages = new Set(spaces.filter(onVictim).flatMap((space) => [...space.acked.values()]));
  const inWindow = (id) =>
    window.has(id) ||
    (victimMessages.has(id) && sink.copies.get(id)[0] >= windowReadAt && sink.copies.get(id)[0] <= promotedAt);
  const errorWindow = (list) =>
    list.length
      ? { from: Math.min(...list.map((e) => e.at)) - killedAt, to: Math.max(...list.map((e) => e.until)) - killedAt }
      : null;

  // Deliveries a second (first copies), from the sink's times: the rate before the kill, and the first
  // second after the promotion from which three seconds in a row are back at 80 % of it.
  const firsts = all.map((id) => sink.copies.get(id)?.[0]).filter(Boolean);
  const perSecond = (from, to) => firsts.filter((at) => at >= from && at < to).length;
  const baseline = perSecond(killedAt - 5000, killedAt) / 5;
  let backAt = null;
  for (let t = promotedAt; t < loadEnded - 3000; t += 250) {
    if ([0, 1, 2].every((k) => perSecond(t + k * 1000, t + (k + 1) * 1000) >= 0.8 * baseline)) {
      backAt = t;
      break;
    }
  }

  Object.assign(rows, {
    spaces: SPACES,
    onVictim: spaces.filter(onVictim).length,
    sent,
    acknowledged: all.length,
    stored,
    delivered: all.filter((id) => sink.copies.has(id)).length,
    lost: all.length - stored,
    duplicates: duplicates.length,
    duplicatesOutsideWindow: duplicates.filter((id) => !inWindow(id)).length,
    inFlightAtKill: window.size,
    promotionS: (promotedAt - killedAt) / 1000,
    victimErrors: errorWindow(spaces.filter(onVictim).flatMap((s) => s.errors)),
    healthyErrors: errorWindow(spaces.filter((s) => !onVictim(s)).flatMap((s) => s.errors)),
    healthySpacesWithErrors: spaces.filter((s) => !onVictim(s) && s.errors.length).length,
    victimSpacesWithErrors: spaces.filter((s) => onVictim(s) && s.errors.length).length,
    errorCodes: [...new Set(spaces.flatMap((s) => s.errors.map((e) => e.failure)))],
    replicaKillErrors: spaces.flatMap((s) => s.errors).filter((e) => e.at >= replicaKilledAt && e.at < restartedAt)
      .length,
    restartErrors: spaces.flatMap((s) => s.errors).filter((e) => e.at >= restartedAt).length,
    baselinePerS: baseline,
    backToRateAfterPromotionS: backAt === null ? null : (backAt - promotedAt) / 1000,
    loadS: (loadEnded - loadStarted) / 1000,
  });
  rt.redis.disconnect();
} catch (error) {
  process.stderr.write(`cluster drill failed: ${error.stack}\n`);
  code = 2;
}
await cleanup();

if (code === 0) {
  const r = rows;
  const ms = (w) => (w ? `${(w.from / 1000).toFixed(1)} to ${(w.to / 1000).toFixed(1)} s after the kill` : 'none');
  console.log(
    `Cluster drill: ${r.spaces} spaces (${r.onVictim} on the killed primary), one send_email every ${PACE_MS} ms each, node-timeout ${NODE_TIMEOUT_MS} ms, AOF; kill -9 of that primary, a replica ${PHASES.promotedToReplicaKill / 1000} s after the promotion, the killed node restarted ${PHASES.replicaKillToRestart / 1000} s later.`,
  );
  console.log();
  console.log(
    "| acknowledged | stored | delivered | lost | duplicates (outside the window) | in flight at the kill | promotion s | errors, killed node's spaces | errors, other spaces | spaces with errors (killed node / others) | errors after the replica's kill / the restart | deliveries/s before | back to rate after the promotion |",
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---:|---:|');
  console.log(
    `| ${r.acknowledged} | ${r.stored} | ${r.delivered} | ${r.lost} | ${r.duplicates} (${r.duplicatesOutsideWindow}) | ${r.inFlightAtKill} | ${r.promotionS.toFixed(1)} | ${ms(r.victimErrors)} | ${ms(r.healthyErrors)} | ${r.victimSpacesWithErrors} / ${r.healthySpacesWithErrors} | ${r.replicaKillErrors} / ${r.restartErrors} | ${r.baselinePerS.toFixed(1)} | ${r.backToRateAfterPromotionS === null ? 'not within the load' : `${r.backToRateAfterPromotionS.toFixed(1)} s`} |`,
  );
  console.log();
  console.log(`Error codes seen: ${r.errorCodes.join(', ') || 'none'}.`);
  if (r.lost || r.delivered !== r.acknowledged || r.duplicatesOutsideWindow) code = 1;
}
process.exit(code);
