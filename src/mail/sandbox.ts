/**
 * Untrusted content is parsed away from the event loop that answers requests and SMTP sessions, with
 * bounded time and memory (docs/operations.md, "Limits on untrusted content"): a pool of runners, each
 * a worker thread (a JS heap limit: MIME and HTML, whose memory outside the heap grows only with the
 * message's size) or a child process (a heap limit and an address-space limit: PDF, whose streams
 * inflate a thousandfold outside the heap). A runner reads one job at a time; one that runs past its
 * time is killed (terminate, SIGKILL) and its job answered `time_limit`; one that dies of its memory
 * limit answers `memory_limit`. A new runner replaces it at the next job. Runners are started at their
 * first job and kept (loading the parsers costs 50 to 150 ms), and hold no process alive while idle.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TextUnavailable } from '../record-schemas.js';

/** A read's value, or why there is none (docs/tools.md, `text_unavailable`). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: TextUnavailable };

/** What a runner's entry module answers each job with. */
export type Reply<T> = { id: number } & Outcome<T>;

/** What a runner's entry module sends once, when it is ready for jobs. */
export const READY = { ready: true } as const;

/** The messages of a runner: `READY`, then replies. */
const route = (events: RunnerEvents) => (message: Reply<unknown> | typeof READY) =>
  'ready' in message ? events.ready() : events.reply(message);

/** One runner, whatever runs it. */
interface Runner {
  post(message: unknown): void;
  /** Ends it at once; its `exit` follows. */
  kill(): void;
  /** While a job runs the runner keeps the process alive; idle, it does not. */
  hold(held: boolean): void;
}

interface RunnerEvents {
  /** It loaded its parser: its job's time starts now (loading takes seconds on a busy machine). */
  ready(): void;
  reply(reply: Reply<unknown>): void;
  /** It ended: killed, crashed, or over a memory limit (`memory`). */
  exit(memory: boolean): void;
}

export type RunnerFactory = (events: RunnerEvents) => Runner;

/** A worker thread on `entry` with a JS heap of `heapMb`. */
export const threadRunner =
  (entry: URL, heapMb: number): RunnerFactory =>
  (events) => {
    const worker = new Worker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.max(4, Math.floor(heapMb / 8)) },
    });
    let memory = false;
    worker.on('message', route(events));
    worker.on(
      'error',
      (error: Error & { code?: string }) => void (memory ||= error.code === 'ERR_WORKER_OUT_OF_MEMORY'),
    );
    worker.once('exit', () => events.exit(memory));
    return {
      post: (message) => worker.postMessage(message),
      kill: () => void worker.terminate(),
      hold: (held) => (held ? worker.ref() : worker.unref()),
    };
  };

/** Signals V8 and Node die of when an allocation fails for good (heap limit, address space). */
const OUT_OF_MEMORY_SIGNALS = new Set(['SIGABRT', 'SIGTRAP']);

/**
 * A child process of this Node on `entry`, its JS heap at `heapMb`; `memoryMb` is handed to the entry,
 * which bounds its own address space with it (`boundAddressSpace`) once its parser is loaded. Its malloc
 * arenas are two (each thread's arena reserves 64 MB of address space otherwise).
 */
export const processRunner =
  (entry: URL, limits: { heapMb: number; memoryMb: number }): RunnerFactory =>
  (events) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, `--max-old-space-size=${limits.heapMb}`, fileURLToPath(entry), String(limits.memoryMb)],
      {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        serialization: 'advanced',
        env: { ...process.env, MALLOC_ARENA_MAX: '2' },
      },
    );
    child.on('message', route(events));
    // A failed spawn or a broken channel: the exit follows, or the job's time limit ends it.
    child.on('error', () => undefined);
    child.once('exit', (_code, signal) => events.exit(signal !== null && OUT_OF_MEMORY_SIGNALS.has(signal)));
    return {
      post: (message) => child.send(message as object),
      kill: () => void child.kill('SIGKILL'),
      hold: (held) => {
        const handles = [child, child.channel].filter(Boolean) as { ref(): void; unref(): void }[];
        for (const handle of handles)
          if (held) handle.ref();
          else handle.unref();
      },
    };
  };

/**
 * Called by a child process's entry once its parser is loaded and has read a first document: from then
 * on the process may map at most `memoryMb` more than it has (RLIMIT_AS, set with util-linux's prlimit:
 * Node has no setrlimit). Measured from what it has, since V8 reserves address space it never uses (a
 * 512 MB code range an isolate, some 650 MB in all). An allocation past it fails: pdfjs throws, or V8
 * ends the process. A process that cannot bound itself exits: its jobs get no text.
 */
export function boundAddressSpace(memoryMb: number): void {
  const mapped = Number(/^VmSize:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
  if (!mapped || !(memoryMb > 0)) process.exit(70);
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--as=${mapped * 1024 + memoryMb * 1024 * 1024}`], {
      stdio: 'ignore',
    });
  } catch {
    process.exit(70);
  }
}

interface Job {
  message: Record<string, unknown>;
  done: (outcome: Outcome<unknown>) => void;
}

/** A runner that never reports ready (a machine too busy to load it, a process that hangs) is ended after this. */
const START_MS = 60_000;

/**
 * Jobs handed to one runner at a time. It reads them in turn; the next one already waiting in its
 * channel when it answers one spares it a sleep and a wake a job (BENCHMARKS.md, "Receiving").
 */
export const RUNNER_DEPTH = 4;

interface Slot {
  runner: Runner;
  /** It loaded its parser (READY): a job's time runs only from then on. */
  ready: boolean;
  /** The jobs handed to it, oldest first, with their ids: the first is the one it reads now, the others wait. */
  jobs: (Job & { id: number })[];
  /** The timer of its start, then of its current job's time. */
  timer: NodeJS.Timeout | null;
  /** Killed for its time: its exit answers nothing more. */
  killed: boolean;
}

export class SandboxPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 0;

  constructor(
    private readonly factory: RunnerFactory,
    private readonly size: number,
    private readonly timeMs: number,
  ) {}

  /** Runs one job on a free runner (in turn when all are busy): its value, or why there is none. */
  run<T>(message: Record<string, unknown>): Promise<Outcome<T>> {
    return new Promise((resolve) => {
      this.queue.push({ message, done: resolve as Job['done'] });
      this.dispatch();
    });
  }

  /** An idle runner first, then a new one, then one with room behind its current job. */
  private freeSlot(): Slot | null {
    const open = [...this.slots].filter((slot) => !slot.killed);
    return (
      open.find((slot) => !slot.jobs.length) ??
      (this.slots.size < this.size ? this.start() : null) ??
      open.find((slot) => slot.jobs.length < RUNNER_DEPTH) ??
      null
    );
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = this.freeSlot();
      if (!slot) return;
      const job = { ...this.queue.shift()!, id: this.nextId++ };
      slot.jobs.push(job);
      // A runner still loading takes its jobs when it is ready; the first one's time starts then.
      slot.runner.post({ ...job.message, id: job.id });
      if (slot.jobs.length === 1) {
        slot.runner.hold(true);
        if (slot.ready) this.clock(slot, this.timeMs);
      }
    }
  }

  /** (Re)starts the slot's timer: past it, the runner is killed. */
  private clock(slot: Slot, ms: number): void {
    clearTimeout(slot.timer ?? undefined);
    slot.timer = setTimeout(() => this.expire(slot), ms);
    if (!slot.jobs.length) slot.timer.unref();
  }

  private start(): Slot {
    const slot: Slot = { runner: null as unknown as Runner, ready: false, jobs: [], timer: null, killed: false };
    slot.runner = this.factory({
      ready: () => {
        slot.ready = true;
        if (slot.jobs.length) this.clock(slot, this.timeMs);
        else clearTimeout(slot.timer ?? undefined);
      },
      reply: (reply) => {
        if (slot.jobs[0]?.id !== reply.id) return;
        this.finish(slot, reply.ok ? { ok: true, value: reply.value } : { ok: false, reason: reply.reason });
      },
      exit: (memory) => {
        clearTimeout(slot.timer ?? undefined);
        this.slots.delete(slot);
        const current = slot.jobs.shift();
        this.requeue(slot);
        if (current && !slot.killed) current.done({ ok: false, reason: memory ? 'memory_limit' : 'unreadable' });
        this.dispatch();
      },
    });
    slot.runner.hold(false);
    this.slots.add(slot);
    this.clock(slot, START_MS);
    return slot;
  }

  /** The current job answered: the next one handed to the runner starts its time. */
  private finish(slot: Slot, outcome: Outcome<unknown>): void {
    const job = slot.jobs.shift()!;
    if (slot.ready) {
      if (slot.jobs.length) this.clock(slot, this.timeMs);
      else clearTimeout(slot.timer ?? undefined);
    }
    if (!slot.jobs.length && !slot.killed) slot.runner.hold(false);
    job.done(outcome);
    this.dispatch();
  }

  /** The jobs a dead runner never began go back to the front of the queue, in their order. */
  private requeue(slot: Slot): void {
    this.queue.unshift(...slot.jobs.map(({ message, done }) => ({ message, done })));
    slot.jobs = [];
  }

  /** Past its time the runner is set aside at once (no job is given to it while it dies), then killed. */
  private expire(slot: Slot): void {
    slot.killed = true;
    this.slots.delete(slot);
    const current = slot.jobs.shift();
    this.requeue(slot);
    if (current) current.done({ ok: false, reason: 'time_limit' });
    slot.runner.kill();
    this.dispatch();
  }
}
