// Redis memory per message (docs/contract.md, decision 10), on built sources: `npm run bench:memory` builds
// and runs it on this tree; `--root DIR` runs the same seeding on another build (the previous design:
// a `git archive` of main, built, with node_modules linked). Loopback only; it starts its own
// redis-server and stops it. One space gets N accepted sends (send_email, 312-character text, test
// sends to the space's human, each a new thread), another N received messages (the inbound store,
// each from a new correspondent, 312-character text, a 1 KB raw source). Prints, per key family, the
// Redis bytes per message from MEMORY USAGE of every key (pipelined: a sample of a family would miss
// its few large keys, the common words' postings, and move by hundreds of bytes between runs),
// then get_thread (a 20-message thread) and send_email latency, in process, at 10^3 and N messages.
// `--smoke` (@bench-smoke): N = 1,000, a few latency samples, no timing judged (CI).
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { inProcessService, passedChecks } from './lib.mjs';

const { values } = parseArgs({
  options: { smoke: { type: 'boolean', default: false }, root: { type: 'string', default: '.' } },
});
const root = resolve(values.root);
const N = values.smoke ? 1_000 : Number(process.env.BENCH_MESSAGES ?? 100_000);
const LATENCY_SAMPLES = values.smoke ? 20 : 300;
const CONCURRENCY = 64;
const { rt, clock, load } = await inProcessService(root, 'memory', {
  SEND_WINDOW: 'always',
  SPACING_SECONDS: '0',
  WEBHOOKS_ENABLED: '0',
});
const { spaceKeys } = await load('src/redis/keys.js');
const { authenticate, createSpace } = await load('actors/space.js');
const { createInbox } = await load('actors/inbox.js');
const { receiveInbound } = await load('actors/inbound.js');
const { callTool } = await load('src/tools/dispatch.js');

const TEXT = (
  'Bonjour Marie, suite à notre échange de mardi, voici le point sur la commande 4521 : livraison prévue jeudi, ' +
  'facture envoyée à la comptabilité, reste à confirmer le créneau de réception. Pouvez-vous me dire si 10 h vous convient ? ' +
  'Merci et bonne journée, Paul (équipe ventes).'
).padEnd(312, '.');

async function seededSpace() {
  const human = `humain-${randomBytes(3).toString('hex')}@bench.test`;
  const space = await createSpace(rt, { human, plan: 'bench', verified: true });
  const access = await authenticate(rt, space.api_key);
  const inbox = await createInbox(rt, access, {
    username: `banc-${randomBytes(3).toString('hex')}`,
    domain: rt.config.commonDomain,
    shared: true,
    display_name: 'Banc',
  });
  return { spaceId: space.space_id, access, inbox, human };
}

/** Runs `count` calls of `one(i)`, CONCURRENCY at a time. */
async function many(count, one) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await one(next++);
    }),
  );
}

const sendBody = (s) => ({
  inbox_id: s.inbox.id,
  to: s.human,
  subject: 'Point sur la commande 4521',
  text: TEXT,
  test: true,
});
const send = async (s) => {
  const { output } = await callTool(rt, s.access, 'send_email', sendBody(s));
  if (!output.message) throw new Error('send refused');
};

const source = (from, subject) =>
  Buffer.from(
    `From: ${from}\r\nTo: banc@x\r\nSubject: ${subject}\r\nMessage-ID: <${randomBytes(8).toString('hex')}@exp.test>\r\n` +
      `DKIM-Signature: v=1; a=rsa-sha256; d=exp.test; s=s1; b=${randomBytes(180).toString('base64')}\r\n\r\n${TEXT}\r\n`,
  );
const receive = (s, from, subject = 'Commande 4521') =>
  receiveInbound(
    rt,
    s.spaceId,
    { id: s.inbox.id, address: s.inbox.address },
    {
      from,
      from_name: 'Marie Client',
      reply_to: '',
      subject,
      text: TEXT,
      html: '',
      message_id_header: `<${randomBytes(8).toString('hex')}@exp.test>`,
      in_reply_to: '',
      references: [],
      automatic: false,
      attachments: [],
      source: source(from, subject),
      auth_results: passedChecks(from),
    },
  );

/** Every key of a space by family (ids replaced by <id>): count and bytes, every key measured. */
async function footprint(spaceId) {
  const families = new Map();
  let cursor = '0';
  do {
    const [nextCursor, keys] = await rt.redis.scan(cursor, 'MATCH', `*{${spaceId}}*`, 'COUNT', 5000);
    cursor = nextCursor;
    for (const key of keys) {
      const family = key
        .replace(spaceId, 'spc')
        .replace(/(msg|thr|inb|att|log|evt|key)_[0-9a-z]{20}/g, '$1_…')
        .replace(/:idem:[0-9a-f]+/, ':idem:…')
        .replace(/:\d{4}-\d{2}-\d{2}$/, ':<day>')
        .replace(/:s:w:.*/, ':s:w:<word>');
      const keysOfFamily = families.get(family) ?? [];
      keysOfFamily.push(key);
      families.set(family, keysOfFamily);
    }
  } while (cursor !== '0');
  const rows = [];
  for (const [family, keys] of families) {
    let bytes = 0;
    for (let i = 0; i < keys.length; i += 1_000) {
      const usage = rt.redis.pipeline();
      for (const key of keys.slice(i, i + 1_000)) usage.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
      for (const [error, size] of await usage.exec()) {
        if (error) throw error;
        bytes += Number(size ?? 0);
      }
    }
    const encoding = await rt.redis.call('OBJECT', 'ENCODING', keys[0]);
    rows.push({ family, count: keys.length, encoding, bytes });
  }
  return rows.sort((a, b) => b.bytes - a.bytes);
}

function printFootprint(title, rows) {
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  console.log(`\n${title}: ${(total / N).toFixed(0)} bytes of Redis per message (${N} messages)\n`);
  console.log('| key family | keys | encoding | bytes per message |');
  console.log('|---|---:|---|---:|');
  for (const row of rows)
    if (row.bytes / N >= 1)
      console.log(`| \`${row.family}\` | ${row.count} | ${row.encoding} | ${(row.bytes / N).toFixed(0)} |`);
}

async function latency(label, call) {
  const times = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(`| ${label} | ${at(0.5)} | ${at(0.99)} |`);
}

console.log(`# bench:memory on ${root} (${values.smoke ? 'smoke' : 'full'})`);
const sender = await seededSpace();
const receiver = await seededSpace();
const thread = async (s) => {
  for (let i = 0; i < 20; i++) await receive(s, 'fil@exp.test', 'Le fil de vingt messages');
  const { output } = await callTool(rt, s.access, 'list_threads', { inbox_id: s.inbox.id, limit: 1 });
  return (
    output.items.find((t) => t.message_count === 20)?.id ??
    (await callTool(rt, s.access, 'list_threads', { inbox_id: s.inbox.id, limit: 100 })).output.items.find(
      (t) => t.message_count === 20,
    ).id
  );
};
const longThread = await thread(receiver);
const measure = async (size) => {
  console.log(`\n| at ${size} messages in the space | p50 ms | p99 ms |\n|---|---:|---:|`);
  await latency('get_thread (20 messages)', () =>
    callTool(rt, receiver.access, 'get_thread', { thread_id: longThread }),
  );
  await latency('send_email', () => send(sender));
};

await many(1_000, () => send(sender));
await many(1_000 - 20, (i) => receive(receiver, `c${i}-${randomBytes(3).toString('hex')}@exp.test`));
await measure(1_000);
const started = performance.now();
await many(N - 1_000, () => send(sender));
const sendSeconds = (performance.now() - started) / 1000;
const startedReceive = performance.now();
await many(N - 1_000, (i) => receive(receiver, `d${i}-${randomBytes(3).toString('hex')}@exp.test`));
const receiveSeconds = (performance.now() - startedReceive) / 1000;
console.log(
  `\nseeded past the first 1,000: ${N - 1_000} sends in ${sendSeconds.toFixed(1)} s, ${N - 1_000} received in ${receiveSeconds.toFixed(1)} s`,
);
await measure(N);
printFootprint('Accepted sends', await footprint(sender.spaceId));
printFootprint('Received messages', await footprint(receiver.spaceId));
rt.redis.disconnect();
process.exit(0);
