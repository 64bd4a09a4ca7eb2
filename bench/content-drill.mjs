// The hostile content drill (figures in docs/operations.md, "Kill drills", and BENCHMARKS.md),
// run by bench/drills.sh after the kill drills. One `serve --role all` process (HTTP, SMTP, workers) on
// a scratch redis-server relaying to a discarding SMTP sink; 4 clients call send_email all along. First
// the load alone (20 s), then under it, 5 rounds of: a 2 MB HTML-only mail nested some 190,000 elements
// deep sent over SMTP, a mail carrying that HTML and a 1 MB PDF that inflates to 1 GB as attachments,
// and get_attachment of both files. In each phase /healthz is asked every 20 ms (p50, p99, max) and the
// process's memory read every 50 ms from /proc (its resident size, its children's: the PDF reader), and
// its own event-loop delay read from /metrics (what the machine's other work does not explain).
// Loopback only; everything it starts, it stops. `--smoke`: 3 s and one round, for CI, judging no timing.
// Exit 1 when a hostile mail is not taken (250) with its text marked, a get_attachment does not answer
// 200 with `text: null` and its reason, a send_email fails, or /healthz does not answer.
import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { freePort, startRedis } from './lib.mjs';
import { inflatingPdf, nestedHtmlOf } from '../test/helpers/hostile.mjs';

const smoke = process.argv.includes('--smoke');
const run = process.env.DRILLS_RUN;
if (!run) throw new Error('DRILLS_RUN (a scratch directory) must be set: run bench/drills.sh');
const ROUNDS = smoke ? 1 : 5;
/** Clients calling send_email: enough to keep the process busy, few enough that /healthz is not only queueing behind them. */
const CLIENTS = 4;
/** The load alone first, for comparison. */
const LOAD_ONLY_MS = smoke ? 3000 : 20_000;

const [redisPort, httpPort, smtpPort] = await Promise.all([freePort(), freePort(), freePort()]);
await startRedis(redisPort);
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData: (stream, _s, done) => stream.resume().on('end', () => done()),
});
sink.on('error', () => {});
await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));

const env = {
  ...process.env,
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  MAILBOX_DATA_DIR: run,
  PORT: String(httpPort),
  SMTP_PORT: String(smtpPort),
  OUTBOUND: `smtp://127.0.0.1:${sink.server.address().port}`,
};
const server = spawn(process.execPath, ['--max-semi-space-size=64', 'bin/mailbox.js', 'serve', '--role', 'all'], {
  env,
  stdio: ['ignore', 'ignore', 'pipe'],
});
server.stderr.on('data', (chunk) => appendFileSync(join(run, 'content-drill.log'), chunk));
const stop = () => server.exitCode === null && server.kill('SIGTERM');
process.on('exit', stop);
const base = `http://127.0.0.1:${httpPort}`;
for (
  let tries = 0;
  !(await fetch(`${base}/healthz`).then(
    (r) => r.ok,
    () => false,
  ));
  tries++
) {
  if (tries > 200) throw new Error('the service did not answer /healthz within 20 s');
  await sleep(100);
}

const seed = spawn(process.execPath, ['bench/seed.mjs', join(run, 'content-body.json')], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let apiKey = '';
seed.stdout.on('data', (chunk) => (apiKey += chunk));
await new Promise((resolve) => seed.on('exit', resolve));
const auth = { authorization: `Bearer ${apiKey.trim()}`, 'content-type': 'application/json' };
const call = async (tool, body) => {
  const res = await fetch(`${base}/v1/${tool}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};
const sendBody = JSON.parse(readFileSync(join(run, 'content-body.json'), 'utf8'));
const inbox = (await call('list_inboxes', {})).body.items.find((item) => item.id === sendBody.inbox_id);

/** Resident sizes in kB from /proc: the process's own, and the sum of its children's (the PDF reader). */
const statusOf = (pid) => readFileSync(`/proc/${pid}/status`, 'utf8');
const kb = (status, field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
function childrenOf(pid) {
  const children = [];
  for (const task of readdirSync(`/proc/${pid}/task`))
    children.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean));
  return children;
}

/** The process's own event-loop delay since the last read, from prom-client's default metrics (it resets them at each read), in ms. */
async function loopDelay() {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name) => 1000 * Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? NaN);
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') };
}

/**
 * Runs `work` under the send load with /healthz asked every 20 ms and the memory read every 50 ms:
 * /healthz's latencies and failures, send_email's outcomes, the peaks of memory.
 */
async function phase(work) {
  const stats = {
    latencies: [],
    healthFailures: 0,
    sendsOk: 0,
    sendsFailed: 0,
    ownPeakKb: 0,
    childrenPeakKb: 0,
    totalPeakKb: 0,
  };
  let running = true;
  const probe = async () => {
    while (running) {
      const started = performance.now();
      const ok = await fetch(`${base}/healthz`).then(
        async (r) => (await r.arrayBuffer(), r.ok),
        () => false,
      );
      stats.latencies.push(performance.now() - started);
      if (!ok) stats.healthFailures++;
      await sleep(20);
    }
  };
  const load = async () => {
    while (running) {
      const res = await call('send_email', sendBody).catch(() => ({ status: 0 }));
      if (res.status === 200) stats.sendsOk++;
      else stats.sendsFailed++;
    }
  };
  const sample = () => {
    try {
      const own = kb(statusOf(server.pid), 'VmRSS');
      let children = 0;
      for (const pid of childrenOf(server.pid)) children += kb(statusOf(pid), 'VmRSS');
      stats.ownPeakKb = Math.max(stats.ownPeakKb, own);
      stats.childrenPeakKb = Math.max(stats.childrenPeakKb, children);
      stats.totalPeakKb = Math.max(stats.totalPeakKb, own + children);
    } catch {
      // A child gone between the listing and its read.
    }
  };
  const timer = setInterval(sample, 50);
  await loopDelay();
  const background = [probe(), ...Array.from({ length: CLIENTS }, load)];
  const began = performance.now();
  await work();
  stats.seconds = (performance.now() - began) / 1000;
  stats.loop = await loopDelay();
  running = false;
  await Promise.all(background);
  clearInterval(timer);
  sample();
  stats.latencies.sort((x, y) => x - y);
  return stats;
}

const mailer = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
const html = nestedHtmlOf(2 * 1024 * 1024);
const pdf = inflatingPdf(1024 * 1024 * 1024);
const outcomes = [];
const expect = (what, ok, detail) => outcomes.push({ what, ok, detail });
/** The hostile sender's message of this subject (its threads, among the load's many). */
const receivedOf = async (subject) => {
  const threads = await call('list_threads', { inbox_id: inbox.id, contact: 'piege@hostile.test' });
  const thread = threads.body.items.find((item) => item.subject === subject);
  return thread ? (await call('get_thread', { thread_id: thread.id })).body.messages[0] : { attachments: [] };
};

async function hostileRound(round) {
  const nested = await mailer
    .sendMail({ from: 'piege@hostile.test', to: inbox.address, subject: `Imbriqué ${round}`, html })
    .catch((error) => ({ response: String(error.response ?? error) }));
  const stored = await receivedOf(`Imbriqué ${round}`);
  expect(
    'nested HTML mail',
    /^250 /.test(nested.response) && stored.text_unavailable === 'depth_limit',
    `${nested.response} ${stored.text_unavailable}`,
  );
  const files = await mailer
    .sendMail({
      from: 'piege@hostile.test',
      to: inbox.address,
      subject: `Fichiers ${round}`,
      text: 'Voici.',
      attachments: [
        { filename: 'piege.html', content: html, contentType: 'text/html' },
        { filename: 'facture.pdf', content: pdf, contentType: 'application/pdf' },
      ],
    })
    .catch((error) => ({ response: String(error.response ?? error) }));
  expect('mail with the files', /^250 /.test(files.response), files.response);
  const message = await receivedOf(`Fichiers ${round}`);
  // The PDF fills PDF_MEMORY_MB in a second or two; on a machine busy enough it meets its time limit first.
  for (const [name, reasons] of [
    ['piege.html', ['depth_limit']],
    ['facture.pdf', ['memory_limit', 'time_limit']],
  ]) {
    const attachment = message.attachments.find((a) => a.filename === name);
    const read = attachment
      ? await call('get_attachment', { message_id: message.id, attachment_id: attachment.id })
      : { status: 0, body: {} };
    expect(
      `get_attachment ${name}`,
      read.status === 200 && read.body.text === null && reasons.includes(read.body.text_unavailable),
      `${read.status} ${read.body.text_unavailable}`,
    );
  }
}

const loadOnly = await phase(() => sleep(LOAD_ONLY_MS));
const hostile = await phase(async () => {
  for (let round = 0; round < ROUNDS; round++) await hostileRound(round);
});
const processPeakKb = kb(statusOf(server.pid), 'VmHWM');
stop();
mailer.close();
sink.close();

const at = (latencies, q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
const mb = (value) => (value / 1024).toFixed(0);
console.log(
  `Hostile content: ${ROUNDS} round(s) of a 2 MB HTML-only mail nested ~190,000 deep, a mail with that HTML and a 1 MB PDF inflating to 1 GB attached, and get_attachment of both; ${CLIENTS} clients calling send_email throughout, and as long without the hostile content before. The process's peak resident size over the whole run (VmHWM): ${mb(processPeakKb)} MB.`,
);
console.log();
console.log(
  '| phase | s | /healthz asked | p50 ms | p99 ms | max ms | failed | event-loop delay p99 / max ms | send_email 200 | failed | process RSS at most MB | its children at most MB | both at most MB |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const [name, p] of [
  ['send load only', loadOnly],
  ['send load and hostile content', hostile],
]) {
  console.log(
    `| ${name} | ${p.seconds.toFixed(1)} | ${p.latencies.length} | ${at(p.latencies, 0.5).toFixed(1)} | ${at(p.latencies, 0.99).toFixed(1)} | ${at(p.latencies, 1).toFixed(1)} | ${p.healthFailures} | ${p.loop.p99.toFixed(0)} / ${p.loop.max.toFixed(0)} | ${p.sendsOk} | ${p.sendsFailed} | ${mb(p.ownPeakKb)} | ${mb(p.childrenPeakKb)} | ${mb(p.totalPeakKb)} |`,
  );
}
console.log();
for (const outcome of outcomes.filter((o) => !o.ok)) console.log(`FAILED: ${outcome.what}: ${outcome.detail}`);
console.log(
  `${outcomes.filter((o) => o.ok).length} of ${outcomes.length} hostile inputs answered as expected (goals: /healthz p99 under 100 ms, peak under 512 MB).`,
);
const phases = [loadOnly, hostile];
process.exit(
  outcomes.every((o) => o.ok) && phases.every((p) => !p.healthFailures && !p.sendsFailed && p.sendsOk > 0) ? 0 : 1,
);
