/**
 * The Redis work of a send_email, command by command (docs/architecture.md, "The send's Redis work"):
 * every command the primaries run for it, counted by MONITOR, those inside its scripts included. The
 * count is a budget, not a timing: a change that adds a command to every send fails here, in any
 * placement. The message is bench/send.sh's (a test send to the space's human, eight indexed words).
 */
import t from 'tap';
import type { Redis } from 'ioredis';
import { MASTER_KEY } from '../helpers/domains.js';
import { sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';

/** What a send costs Redis at most, with the benchmark's message (BENCHMARKS.md, "Sending"). */
const SEND_COMMANDS_MOST = 35;

const svc = await startService({
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', SPACING_SECONDS: '0' },
});

/** The commands the primaries run while `action` runs whose arguments name one of `marks`. */
async function commandsOf(marks: string[], action: () => Promise<unknown>): Promise<string[][]> {
  const redis = svc.rt.redis;
  const nodes: Redis[] = 'nodes' in redis ? redis.nodes('master') : [redis];
  const seen: string[][] = [];
  const monitors = await Promise.all(nodes.map((node) => node.monitor()));
  for (const monitor of monitors) {
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((arg) => marks.some((mark) => arg.includes(mark)))) seen.push(args);
    });
  }
  await action();
  // MONITOR's feed comes on its own connections: a PING through each after the action is seen after it.
  await Promise.all(nodes.map((node) => node.ping('end')));
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const monitor of monitors) monitor.disconnect();
  return seen;
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
  const names = commands.map((args) => args[0]!.toUpperCase());
  t.ok(names.includes('EVALSHA'), 'its scripts were seen');
  t.ok(
    commands.length <= SEND_COMMANDS_MOST,
    `${commands.length} commands, at most ${SEND_COMMANDS_MOST}: ${names.join(' ')}`,
  );
});
