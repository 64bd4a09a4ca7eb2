/**
 * The sandbox pool (src/mail/sandbox.ts) hands each runner up to RUNNER_DEPTH jobs, read in turn: a
 * job's time starts when the one before it is answered, a runner past its time answers `time_limit` for
 * the job it was reading and gives the jobs waiting behind it to another runner, and one that dies of
 * its memory answers `memory_limit` for its current job alone. Runners here are in-process stand-ins
 * that answer when the test says so (the real runners' limits: test/inbound/hostile.test.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { RUNNER_DEPTH, SandboxPool, type Outcome, type RunnerFactory } from '../../src/mail/sandbox.js';

interface StandIn {
  /** The ids of the jobs posted to it, in order. */
  posted: number[];
  answer(value: unknown): void;
  die(memory: boolean): void;
  killed: boolean;
}

/** Runners that are ready at once and answer their oldest unanswered job when told to. */
function standIns(): { factory: RunnerFactory; runners: StandIn[] } {
  const runners: StandIn[] = [];
  const factory: RunnerFactory = (events) => {
    let answered = 0;
    const runner: StandIn = {
      posted: [],
      killed: false,
      answer: (value) => events.reply({ id: runner.posted[answered++]!, ok: true, value }),
      die: (memory) => events.exit(memory),
    };
    runners.push(runner);
    queueMicrotask(() => events.ready());
    return {
      post: (message) => runner.posted.push((message as { id: number }).id),
      kill: () => {
        runner.killed = true;
        queueMicrotask(() => events.exit(false));
      },
      hold: () => undefined,
    };
  };
  return { factory, runners };
}

const jobs = (pool: SandboxPool, n: number): Promise<Outcome<unknown>>[] =>
  Array.from({ length: n }, (_, i) => pool.run({ n: i }));

t.test(`one runner takes ${RUNNER_DEPTH} jobs at a time, answered in turn; the next waits in the pool`, async (t) => {
  const { factory, runners } = standIns();
  const pool = new SandboxPool(factory, 1, 60_000);
  const outcomes = jobs(pool, RUNNER_DEPTH + 1);
  t.equal(runners.length, 1);
  t.equal(runners[0]!.posted.length, RUNNER_DEPTH, 'handed up to the depth');
  runners[0]!.answer('a');
  t.same(await outcomes[0], { ok: true, value: 'a' });
  t.equal(runners[0]!.posted.length, RUNNER_DEPTH + 1, 'the waiting job handed over once one is answered');
  for (let i = 1; i <= RUNNER_DEPTH; i++) runners[0]!.answer(i);
  t.same(
    (await Promise.all(outcomes)).map((outcome) => (outcome.ok ? outcome.value : null)),
    ['a', ...Array.from({ length: RUNNER_DEPTH }, (_, i) => i + 1)],
  );
});

t.test('an idle runner is preferred to a busy one, and a new one to one with jobs waiting', async (t) => {
  const { factory, runners } = standIns();
  const pool = new SandboxPool(factory, 2, 60_000);
  const outcomes = jobs(pool, 3);
  t.same(
    runners.map((runner) => runner.posted.length),
    [2, 1],
    'the second runner started before the first took a second job',
  );
  runners[0]!.answer(0);
  runners[1]!.answer(1);
  runners[0]!.answer(2);
  t.equal((await Promise.all(outcomes)).length, 3);
});

t.test(
  'past its time a runner answers time_limit for its current job; those behind it go to another, each with its own time',
  async (t) => {
    const { factory, runners } = standIns();
    const pool = new SandboxPool(factory, 1, 60);
    const outcomes = jobs(pool, 3);
    await sleep(0);
    t.same(await outcomes[0], { ok: false, reason: 'time_limit' });
    t.ok(runners[0]!.killed, 'the runner was killed');
    await sleep(0);
    t.equal(runners.length, 2, 'a new runner');
    t.same(runners[1]!.posted.length, 2, 'took the two jobs that never began');
    // 40 ms each: past the 60 ms together, within them each.
    await sleep(40);
    runners[1]!.answer('b');
    await sleep(40);
    runners[1]!.answer('c');
    t.same(await Promise.all(outcomes.slice(1)), [
      { ok: true, value: 'b' },
      { ok: true, value: 'c' },
    ]);
  },
);

t.test('a runner dead of its memory answers memory_limit for its current job only', async (t) => {
  const { factory, runners } = standIns();
  const pool = new SandboxPool(factory, 1, 60_000);
  const outcomes = jobs(pool, 2);
  await sleep(0);
  runners[0]!.die(true);
  t.same(await outcomes[0], { ok: false, reason: 'memory_limit' });
  await sleep(0);
  runners[1]!.answer('suite');
  t.same(await outcomes[1], { ok: true, value: 'suite' });
});
