/**
 * GET /metrics: the Prometheus text format, parsed here; the families exist, and tool calls (HTTP and
 * MCP), Redis scripts, a departure, inbound SMTP sessions and webhook deliveries move them. METRICS_TOKEN guards the scrape.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createTransport } from '../../src/delivery/transports.js';
import { startWebhookWorker } from '../../src/webhooks/worker.js';
import { deliverDue } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { rawSession, startInbound } from '../helpers/inbound.js';
import { send, sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { startReceiver } from '../helpers/webhooks.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mbx-metrics-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const svc = await startService({
  clock: mondayMorning(),
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, MAILBOX_DATA_DIR: dataDir, SPACING_SECONDS: '0' },
});
const guarded = await startService({ env: { METRICS_TOKEN: 'jeton-de-collecte' } });

interface Scrape {
  /** Family name -> its TYPE. */
  types: Map<string, string>;
  /** Sample (name and labels as written) -> value. */
  samples: Map<string, number>;
}

/** The text exposition format: `# TYPE name type` lines and `name{labels} value` samples. */
function parse(text: string): Scrape {
  const types = new Map<string, string>();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    else if (line && !line.startsWith('#')) {
      const at = line.lastIndexOf(' ');
      samples.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
  }
  return { types, samples };
}

async function scrape(url = svc.url, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await fetch(`${url}/metrics`, { headers });
  if (res.status !== 200) throw new Error(`scrape answered ${res.status}`);
  return parse(await res.text());
}

/** Scrapes until `done` holds, for what the far end of a socket does a moment later (at most 2 s). */
async function scrapeUntil(done: (s: Scrape) => boolean): Promise<Scrape> {
  let scraped = await scrape();
  for (let i = 0; i < 200 && !done(scraped); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    scraped = await scrape();
  }
  return scraped;
}

const value = (s: Scrape, sample: string): number => s.samples.get(sample) ?? 0;

t.test('the text format, with every family of docs/operations.md', async (t) => {
  const res = await fetch(`${svc.url}/metrics`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  const { types } = parse(await res.text());
  const expected = {
    mailbox_tool_call_duration_seconds: 'histogram',
    mailbox_http_request_duration_seconds: 'histogram',
    mailbox_redis_duration_seconds: 'histogram',
    mailbox_queue_jobs: 'gauge',
    mailbox_departures_total: 'counter',
    mailbox_smtp_verdicts_total: 'counter',
    mailbox_smtp_sessions: 'gauge',
    mailbox_webhook_attempts_total: 'counter',
    mailbox_webhook_lag_seconds: 'histogram',
    process_cpu_user_seconds_total: 'counter',
    nodejs_eventloop_lag_seconds: 'gauge',
  };
  for (const [name, type] of Object.entries(expected)) t.equal(types.get(name), type, name);
});

t.test('tool calls over HTTP and MCP, by tool and code, and the Redis scripts behind them', async (t) => {
  const { apiKey } = await svc.space();
  const before = await scrape();
  await svc.call(apiKey, 'get_settings');
  await svc.call(apiKey, 'get_settings');
  await svc.call(apiKey, 'list_events', { limit: 0 });
  await svc.call(apiKey, 'send_pigeon');
  await svc.call(null, 'get_settings');
  const client = await svc.mcp(apiKey);
  await client.callTool({ name: 'get_settings', arguments: {} });
  const after = await scrape();
  const moved = (sample: string) => value(after, sample) - value(before, sample);
  t.equal(moved('mailbox_tool_call_duration_seconds_count{front="http",tool="get_settings",code="ok"}'), 2);
  t.equal(
    moved('mailbox_tool_call_duration_seconds_count{front="http",tool="list_events",code="invalid_argument"}'),
    1,
  );
  t.equal(
    moved('mailbox_tool_call_duration_seconds_count{front="http",tool="unknown",code="not_found"}'),
    1,
    'a made-up name is no label',
  );
  t.equal(moved('mailbox_tool_call_duration_seconds_count{front="http",tool="get_settings",code="unauthorized"}'), 1);
  t.equal(moved('mailbox_tool_call_duration_seconds_count{front="mcp",tool="get_settings",code="ok"}'), 1);
  t.ok(moved('mailbox_http_request_duration_seconds_count{route="/v1/:tool",status="200"}') >= 2);
  t.ok(moved('mailbox_http_request_duration_seconds_count{route="/mcp",status="200"}') >= 1);
  t.ok(
    moved('mailbox_redis_duration_seconds_count{operation="space/authenticate"}') >= 6,
    'each authentication is a script run',
  );
  t.equal(
    after.samples.has('mailbox_queue_jobs{queue="send",state="delayed"}'),
    true,
    'queue depths are read at the scrape',
  );
  t.equal(after.samples.has('mailbox_queue_jobs{queue="erase",state="waiting"}'), true);
});

t.test('a departure counts by outcome where the worker gets it back', async (t) => {
  const s = await sender(svc);
  t.equal((await send(svc, s)).status, 200);
  const before = await scrape();
  await deliverDue(svc.rt, createTransport(svc.rt), s.spaceId, s.inboxId);
  const after = await scrape();
  t.equal(
    value(after, 'mailbox_departures_total{outcome="sent"}') -
      value(before, 'mailbox_departures_total{outcome="sent"}'),
    1,
    'the outbox sent it',
  );
});

t.test('inbound SMTP: open sessions and verdicts by command', async (t) => {
  const inbound = await startInbound(svc);
  const before = await scrape();
  const session = await rawSession(inbound.port);
  t.match(session.greeting, /^220/);
  t.equal(
    value(await scrape(), 'mailbox_smtp_sessions') - value(before, 'mailbox_smtp_sessions'),
    1,
    'one session open',
  );
  await session.say('EHLO client.test');
  await session.say('MAIL FROM:<quelqu-un@ailleurs.test>');
  t.match(await session.say('RCPT TO:<personne@nulle-part.test>'), /^550/);
  await session.say('QUIT');
  await session.closed;
  // The server hears the close a moment after the client does.
  const after = await scrapeUntil((s) => value(s, 'mailbox_smtp_sessions') === value(before, 'mailbox_smtp_sessions'));
  const moved = (sample: string) => value(after, sample) - value(before, sample);
  t.equal(moved('mailbox_smtp_verdicts_total{command="connect",verdict="accept"}'), 1);
  t.equal(moved('mailbox_smtp_verdicts_total{command="rcpt",verdict="reject"}'), 1);
  t.equal(moved('mailbox_smtp_sessions'), 0, 'closed again');
});

t.test('webhook attempts by result, and the lag of a delivered event', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const hooks = await startService({
    env: {
      MAILBOX_MASTER_KEY: MASTER_KEY,
      WEBHOOK_ALLOW_LOOPBACK: '1',
      WEBHOOK_CA_FILE: receiver.caFile,
      WEBHOOK_RETRY_SCHEDULE: '100ms',
    },
  });
  hooks.dns.a('hook.test', '127.0.0.1');
  const worker = startWebhookWorker(hooks.rt, { idleMs: 20 });
  t.teardown(() => worker.close());
  receiver.answer = (_request, nth) => ({ status: nth === 1 ? 500 : 200 });
  const before = await scrape();
  const { apiKey } = await hooks.space({ plan: 'pro' });
  t.equal(
    (await hooks.call(apiKey, 'set_webhook', { url: `https://hook.test:${receiver.port}/recevoir` })).status,
    200,
  );
  const delivered = (s: Scrape) =>
    value(s, 'mailbox_webhook_attempts_total{result="delivered"}') -
    value(before, 'mailbox_webhook_attempts_total{result="delivered"}');
  const after = await scrapeUntil((s) => delivered(s) >= 1);
  t.equal(delivered(after), 1, 'webhook.test delivered once');
  t.equal(
    value(after, 'mailbox_webhook_attempts_total{result="retry"}') -
      value(before, 'mailbox_webhook_attempts_total{result="retry"}'),
    1,
    'after one retry',
  );
  t.equal(value(after, 'mailbox_webhook_lag_seconds_count') - value(before, 'mailbox_webhook_lag_seconds_count'), 1);
  t.ok(
    value(after, 'mailbox_webhook_lag_seconds_sum') - value(before, 'mailbox_webhook_lag_seconds_sum') >= 0.09,
    'the lag holds the retry wait',
  );
});

t.test('METRICS_TOKEN: the scrape asks for it as a bearer', async (t) => {
  const attempts: Record<string, string>[] = [
    {},
    { authorization: 'Bearer autre-jeton' },
    { authorization: 'Bearer jeton-de-collecte-' },
  ];
  for (const headers of attempts) {
    const res = await fetch(`${guarded.url}/metrics`, { headers });
    t.equal(res.status, 401, JSON.stringify(headers));
    t.equal((await res.json()).error.code, 'unauthorized');
  }
  const scraped = await scrape(guarded.url, { authorization: 'Bearer jeton-de-collecte' });
  t.ok(scraped.types.has('mailbox_tool_call_duration_seconds'));
});
