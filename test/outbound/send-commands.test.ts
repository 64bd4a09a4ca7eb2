/**
 * The Redis work of a send_email, command by command (docs/architecture.md, "The send's Redis work"):
 * every command the primaries run for it, counted by MONITOR, those inside its scripts included. The
 * count is a budget, not a timing: a change that adds a command to every send fails here, in any
 * placement. The message is like bench/send.sh's (a test send to the space's human; a word more to index).
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Redis } from 'ioredis';
import { MASTER_KEY } from '../helpers/domains.js';
import { sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';

/**
 * What a send costs Redis at most, with the benchmark's message (BENCHMARKS.md, "Sending"); one of them
 * reads the search records' cut header (lua/includes/docsCut.lua), which numbers the message.
 */
const SEND_COMMANDS_MOST = 35;

const svc = await startService({
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', SPACING_SECONDS: '0' },
});

/**
 * MONITOR of one primary through redis-cli (ioredis's monitor mode, on a Cluster's node under load, once
 * answered a reply to no command): its lines as they come, `ready` once Redis accepted it.
 */
function monitorOf(node: Redis) {
  const { host, port, path } = node.options;
  const where = path ? ['-s', path] : ['-h', host ?? '127.0.0.1', '-p', String(port)];
  const child = spawn('redis-cli', [...where, 'monitor'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const ready = new Promise<void>((resolve) =>
    createInterface({ input: child.stdout }).on('line', (line) => (line === 'OK' ? resolve() : lines.push(line))),
  );
  return { lines, ready, stop: () => child.kill() };
}

/** The commands the primaries run while `action` runs whose arguments name one of `marks` (MONITOR's lines). */
async function commandsOf(marks: string[], action: () => Promise<unknown>): Promise<string[]> {
  const redis = svc.rt.redis;
  const nodes: Redis[] = 'nodes' in redis ? redis.nodes('master') : [redis];
  const monitors = nodes.map(monitorOf);
  t.teardown(() => monitors.forEach((monitor) => monitor.stop()));
  await Promise.all(monitors.map((monitor) => monitor.ready));
  await action();
  // Each feed has passed the action once it shows a command sent after it.
  const end = `fin-${randomBytes(4).toString('hex')}`;
  await Promise.all(nodes.map((node) => node.echo(end)));
  const until = Date.now() + 10_000;
  while (!monitors.every((monitor) => monitor.lines.some((line) => line.includes(end))) && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 20));
  monitors.forEach((monitor) => monitor.stop());
  return monitors.flatMap((monitor) => monitor.lines).filter((line) => marks.some((mark) => line.includes(mark)));
}

t.test('a send_email costs Redis a bounded number of commands, its scripts’ included', async (t) => {
  const s = await sender(svc, { human: 'humain@bench.test' });
  const body = {
    inbox_id: s.inboxId,
    to: 'humain@bench.test',
    subject: 'Point hebdomadaire',
    text: 'Bonjour,\nvoici le point de la semaine.\n'.repeat(8),
    test: true,
  };
  // The first two sends make what is made once (the day's counters; each word's posting, held in a
  // field while one document has it, gets a key of its own at the second).
  for (const _ of [1, 2]) t.equal((await svc.call(s.apiKey, 'send_email', body)).status, 200);
  const commands = await commandsOf([s.spaceId, 'humain@bench.test'], async () => {
    t.equal((await svc.call(s.apiKey, 'send_email', body)).status, 200);
  });
  // A line: `<time> [<db> <client>] "<command>" "<argument>" ...`.
  const names = commands.map((line) => /\] "([^"]+)"/.exec(line)![1]!.toUpperCase());
  t.ok(names.includes('EVALSHA'), 'its scripts were seen');
  t.ok(
    commands.length <= SEND_COMMANDS_MOST,
    `${commands.length} commands, at most ${SEND_COMMANDS_MOST}: ${names.join(' ')}`,
  );
});
