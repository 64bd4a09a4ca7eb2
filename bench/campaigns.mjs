// Campaigns benchmark (built sources under dist/; `npm run bench:campaigns` builds first). Loopback
// only; it starts its own redis-server and stops it. Prints a markdown table:
//  - the import of an audience: CALLS add_contacts of 1,000 contacts each (the actor, as the tool
//    calls it after validation), its time, and the Redis bytes per contact (MEMORY USAGE of the
//    contacts hash and the audience's members, and used_memory's growth);
//  - a campaign over INBOXES inboxes past their warm-up (a plan of DAILY_MAX a day, SEND_WINDOW=always,
//    SPACING_SECONDS=0, as bench/seed.mjs does for the send bench): one feeder visit writes a day of
//    every inbox's quota; its time and Redis commands per message created.
// `--smoke` (@bench-smoke): 2 calls and 2 inboxes, seconds, no timing claim (CI runs it).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ManualClock } from '../dist/src/clock.js';
import { loadConfig } from '../dist/src/config.js';
import { createRuntime } from '../dist/src/runtime.js';
import { spaceKeys } from '../dist/src/redis/keys.js';
import { authenticate, createSpace } from '../dist/actors/space.js';
import { addDomain } from '../dist/actors/domain.js';
import { createInbox } from '../dist/actors/inbox.js';
import { addContacts, createAudience } from '../dist/actors/audience.js';
import { createCampaign, startCampaign } from '../dist/actors/campaign.js';
import { feedCampaign } from '../dist/actors/campaign-feed.js';
import { freePort, redisCli } from './lib.mjs';

const smoke = process.argv.includes('--smoke');
const CALLS = smoke ? 2 : Number(process.env.BENCH_CALLS ?? 100);
const INBOXES = smoke ? 2 : Number(process.env.BENCH_INBOXES ?? 10);
const DAILY_MAX = smoke ? 50 : Number(process.env.BENCH_DAILY_MAX ?? 500);

const redisPort = await freePort();
const redis = spawn(
  'redis-server',
  ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
process.on('exit', () => redis.kill('SIGKILL'));
await new Promise((resolve) => redis.stdout.on('data', (chunk) => /Ready to accept/.test(String(chunk)) && resolve()));

const monday = Date.parse('2026-11-23T08:00:00.000Z');
const clock = new ManualClock(monday - 40 * 24 * 3600 * 1000);
const rt = createRuntime(
  loadConfig({
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    MAILBOX_MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    PLANS: JSON.stringify({ bench: { inbox_cap: INBOXES, daily_max: DAILY_MAX } }),
    SEND_WINDOW: 'always',
    SPACING_SECONDS: '0',
  }),
  { clock },
);
const cli = redisCli(redisPort);
const usedMemory = () => Number(/used_memory:(\d+)/.exec(cli('INFO', 'memory'))[1]);
const commandCalls = () =>
  [...cli('INFO', 'commandstats').matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);

const space = await createSpace(rt, { human: 'humain@bench.test', plan: 'bench', verified: true });
const access = await authenticate(rt, space.api_key);
const keys = spaceKeys(space.space_id);
// No DNS here: the domain is added as a space adds it, then marked verified as verify_domain would.
const domain = await addDomain(rt, access, 'envoi.bench.test');
await rt.redis.hset(keys.domain(domain.domain), 'status', 'verified');
const inboxIds = [];
for (let i = 0; i < INBOXES; i++)
  inboxIds.push(
    (
      await createInbox(rt, access, {
        username: `ventes${i}`,
        domain: domain.domain,
        shared: false,
        display_name: 'Ventes',
      })
    ).id,
  );
clock.set(monday);

const audience = await createAudience(rt, access, 'Banc');
const memoryBefore = usedMemory();
const importStart = performance.now();
for (let call = 0; call < CALLS; call++) {
  const contacts = Array.from({ length: 1000 }, (_, i) => ({
    email: `contact${call * 1000 + i}@destinataire${call % 50}.test`,
    name: `Contact ${call * 1000 + i}`,
  }));
  const result = await addContacts(rt, access, audience.id, contacts);
  if (result.added !== 1000) throw new Error(`call ${call}: ${JSON.stringify(result)}`);
}
const importMs = performance.now() - importStart;
const contacts = CALLS * 1000;
const structures =
  Number(cli('MEMORY', 'USAGE', keys.contacts, 'SAMPLES', '0')) +
  Number(cli('MEMORY', 'USAGE', keys.audienceMembers(audience.id), 'SAMPLES', '0'));
const grown = usedMemory() - memoryBefore;

const campaign = await createCampaign(rt, access, {
  name: 'Banc',
  audience_id: audience.id,
  inbox_ids: inboxIds,
  subject: 'Bonjour {{name}}',
  text: 'Bonjour {{name}},\nune proposition. {{unsubscribe_url}}',
  html: null,
  follow_ups: [{ after_days: 3, text: 'Je me permets de vous relancer.' }],
  requires_approval: false,
  send_after: null,
});
await startCampaign(rt, access, campaign.id);
const callsBefore = commandCalls();
const feedStart = performance.now();
await feedCampaign(rt, space.space_id, campaign.id);
const feedMs = performance.now() - feedStart;
const created = Number(await rt.redis.hlen(keys.campaignContacts(campaign.id)));
const commands = commandCalls() - callsBefore;

const row = (name, value, note = '') => console.log(`| ${name} | ${value} | ${note} |`);
console.log(`\nCampaigns benchmark${smoke ? ' (smoke: sizes too small to mean anything)' : ''}\n`);
console.log('| Measure | Value | Note |\n|---|---|---|');
row(
  'import',
  `${contacts.toLocaleString('en')} contacts in ${(importMs / 1000).toFixed(2)} s`,
  `${CALLS} calls of 1,000: ${(importMs / CALLS).toFixed(1)} ms a call`,
);
row(
  'Redis bytes per contact (structures)',
  (structures / contacts).toFixed(0),
  'MEMORY USAGE of the contacts hash + the audience members; target 300',
);
row('Redis bytes per contact (used_memory growth)', (grown / contacts).toFixed(0), 'journal lines included');
row(
  'feeder visit',
  `${created} messages in ${(feedMs / 1000).toFixed(2)} s`,
  `${INBOXES} inboxes, a day of ${DAILY_MAX} each`,
);
row(
  'feeder cost per created message',
  `${(feedMs / Math.max(created, 1)).toFixed(2)} ms, ${(commands / Math.max(created, 1)).toFixed(1)} Redis commands`,
  'claims, createOutbound, record',
);
rt.redis.disconnect();
process.exit(0);
