// Node's own CPU per send_email, against the floor's (bench/floor-send.mjs), on a crowded machine:
// CPU time (user + system, /proc/<pid>/stat) of `mailbox serve --role http` and of the floor across N
// sends each over real HTTP, not wall-clock, so other processes' load moves it little. Starts its own
// redis-server, the service and the floor (all on core 1 when taskset exists), seeds the space as
// bench/send.sh does (bench/seed.mjs), warms both up, then alternates measured batches between them.
// Needs a build (npm run build). @bench-smoke
//   node bench/send-cpu.mjs [SENDS]       # default 20,000 a batch, 3 batches each
//   node bench/send-cpu.mjs --smoke       # 500 sends, one batch: the script works, no figure judged
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';

const smoke = process.argv[2] === '--smoke';
const sends = smoke ? 500 : Number(process.argv[2] ?? 20000);
const batches = smoke ? 1 : 3;
const inFlight = 16;
const root = new URL('..', import.meta.url).pathname;
const run = mkdtempSync(join(tmpdir(), 'mailbox-send-cpu-'));
const hz = Number(execFileSync('getconf', ['CLK_TCK']).toString());
const pinned = (() => {
  try {
    execFileSync('taskset', ['-c', '1', 'true']);
    return true;
  } catch {
    return false;
  }
})();

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const children = [];
const start = (command, args, env) => {
  const [cmd, argv] = pinned ? ['taskset', ['-c', '1', command, ...args]] : [command, args];
  const child = spawn(cmd, argv, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
};
const stopAll = () => {
  for (const c of children) c.kill();
};
process.on('exit', () => {
  stopAll();
  rmSync(run, { recursive: true, force: true });
});

// CPU seconds a process used so far (the pid is the command's own: taskset execs it).
const cpu = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / hz;
};

const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
const post = (port, body, auth) =>
  new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/send_email',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', authorization: auth, 'content-length': body.length },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`${res.statusCode} ${Buffer.concat(chunks)}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
// n sends, `inFlight` at a time.
const drive = async (port, n, body, auth) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < n) await post(port, body, auth);
    }),
  );
};
// The floor answers only its one route: listening is enough.
const waitListening = async (port) => {
  for (let i = 0; i < 300; i++) {
    const ok = await new Promise((resolve) =>
      connect(port, '127.0.0.1', function () {
        this.end();
        resolve(true);
      }).on('error', () => resolve(false)),
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no answer on port ${port}`);
};

const [rport, hport, fport] = [await freePort(), await freePort(), await freePort()];
const env = {
  REDIS_URL: `redis://127.0.0.1:${rport}`,
  MAILBOX_MASTER_KEY: randomBytes(32).toString('base64'),
  SEND_WINDOW: 'always',
  SPACING_SECONDS: '0',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_BURST: '1000000000',
  RATE_LIMIT_PER_SECOND: '1000000000',
  PLANS: '{"bench":{"inbox_cap":5,"daily_max":100000000}}',
};
start(
  'redis-server',
  ['--loglevel', 'warning', '--port', String(rport), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  {},
);
await new Promise((r) => setTimeout(r, 300));
const service = start('node', ['--max-semi-space-size=64', 'bin/mailbox.js', 'serve', '--role', 'http'], {
  ...env,
  PORT: String(hport),
});
const floor = start('node', ['--max-semi-space-size=64', 'bench/floor-send.mjs'], { ...env, PORT: String(fport) });
await waitListening(hport);
await waitListening(fport);
const key = execFileSync('node', ['bench/seed.mjs', join(run, 'body.json')], {
  cwd: root,
  env: { ...process.env, ...env },
})
  .toString()
  .trim();
const body = readFileSync(join(run, 'body.json'));
const auth = `Bearer ${key}`;

const measure = async (child, port, n) => {
  const before = cpu(child.pid);
  await drive(port, n, body, auth);
  return ((cpu(child.pid) - before) * 1e6) / n;
};
await measure(service, hport, Math.min(sends, 5000));
await measure(floor, fport, Math.min(sends, 5000));
const rows = [];
for (let b = 1; b <= batches; b++) {
  const project = await measure(service, hport, sends);
  const plumbing = await measure(floor, fport, sends);
  rows.push([b, project, plumbing]);
}
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(
  `Node CPU per send over ${sends} sends a batch, ${inFlight} in flight (user + system, /proc; load average ${load}):`,
);
console.log('');
console.log('| batch | send_email µs | floor µs | floor / send_email |');
console.log('|---|---:|---:|---:|');
for (const [b, p, f] of rows) console.log(`| ${b} | ${p.toFixed(0)} | ${f.toFixed(0)} | ${(f / p).toFixed(2)} |`);
agent.destroy();
process.exit(0);
