/**
 * The process's metrics, served in the Prometheus text format by `GET /metrics` (src/http/server.ts).
 * A core leaf: front ends and workers record into it; actors never do (they report outcomes, and the
 * caller counts them). Per process: each process serves what it saw itself, so a scraper scrapes each.
 * Labels take only closed sets (tool names, error codes, outcomes, script names), never an id.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const registers = [registry];
/** From a Redis round trip (a millisecond) to a slow tool call. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** From an event delivered at once to one delivered after the last retry (about a day). */
const LAG_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 1800, 3600, 4 * 3600, 12 * 3600, 24 * 3600, 48 * 3600];

const seconds = (startedMs: number): number => (performance.now() - startedMs) / 1000;

const toolCalls = new Histogram({
  name: 'mailbox_tool_call_duration_seconds',
  help: 'Tool calls by front end, tool and answer code (ok or the error code), with their duration.',
  labelNames: ['front', 'tool', 'code'] as const,
  buckets: LATENCY_BUCKETS,
  registers,
});

/** A tool call answered: `code` is `ok` or the refusal's code; `tool` one of the registry's names or `unknown`. */
export const observeToolCall = (front: 'http' | 'mcp', tool: string, code: string, startedMs: number): void =>
  toolCalls.observe({ front, tool, code }, seconds(startedMs));

const httpRequests = new Histogram({
  name: 'mailbox_http_request_duration_seconds',
  help: 'HTTP answers by route pattern and status, with their duration.',
  labelNames: ['route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers,
});

/** Any HTTP answer; `route` is the pattern (`/v1/:tool`), never the path asked for. */
export const observeHttpRequest = (route: string, status: number, startedMs: number): void =>
  httpRequests.observe({ route, status: String(status) }, seconds(startedMs));

const redisTrips = new Histogram({
  name: 'mailbox_redis_duration_seconds',
  help: 'Redis round trips: a script by name, or a pipeline.',
  labelNames: ['operation'] as const,
  buckets: LATENCY_BUCKETS,
  registers,
});

/** Times one Redis round trip, failed ones included (a timeout is latency too). */
export async function timeRedis<T>(operation: string, trip: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await trip();
  } finally {
    tripsOf(operation).observe(seconds(started));
  }
}

/** One labelled child per operation, made once: every script run of the hot paths observes through it. */
const tripChildren = new Map<string, ReturnType<typeof redisTrips.labels>>();
function tripsOf(operation: string): ReturnType<typeof redisTrips.labels> {
  let child = tripChildren.get(operation);
  if (!child) tripChildren.set(operation, (child = redisTrips.labels({ operation })));
  return child;
}

export type QueueDepths = Record<string, { waiting: number; delayed: number }>;

let readQueueDepths: (() => Promise<QueueDepths>) | null = null;

/** Who reads the queue depths at a scrape (the HTTP front end, which holds the queues); answers how to stop. */
export function readQueueDepthsWith(reader: () => Promise<QueueDepths>): () => void {
  readQueueDepths = reader;
  return () => {
    if (readQueueDepths === reader) readQueueDepths = null;
  };
}

new Gauge({
  name: 'mailbox_queue_jobs',
  help: 'BullMQ jobs by queue and state (waiting, delayed), read at the scrape.',
  labelNames: ['queue', 'state'] as const,
  registers,
  async collect() {
    this.reset();
    if (!readQueueDepths) return;
    // Redis away: no series rather than a failed scrape (the other families still tell what happens).
    const depths = await readQueueDepths().catch(() => ({}));
    for (const [queue, { waiting, delayed }] of Object.entries(depths)) {
      this.set({ queue, state: 'waiting' }, waiting);
      this.set({ queue, state: 'delayed' }, delayed);
    }
  },
});

const departures = new Counter({
  name: 'mailbox_departures_total',
  help: 'Delivery attempts by outcome: sent, delivered, retry, failed (retries spent), rejected (5xx), stale (reported after its lease ran out).',
  labelNames: ['outcome'] as const,
  registers,
});

export const countDeparture = (outcome: string): void => departures.inc({ outcome });

const smtpVerdicts = new Counter({
  name: 'mailbox_smtp_verdicts_total',
  help: 'Inbound SMTP answers by command (connect, rcpt, data: one per message) and verdict (accept, tempfail, reject).',
  labelNames: ['command', 'verdict'] as const,
  registers,
});

export const countSmtpVerdict = (
  command: 'connect' | 'rcpt' | 'data',
  verdict: 'accept' | 'tempfail' | 'reject',
): void => smtpVerdicts.inc({ command, verdict });

const smtpSessions = new Gauge({ name: 'mailbox_smtp_sessions', help: 'Inbound SMTP sessions open now.', registers });

export const smtpSessionOpened = (): void => smtpSessions.inc();
export const smtpSessionClosed = (): void => smtpSessions.dec();

const webhookAttempts = new Counter({
  name: 'mailbox_webhook_attempts_total',
  help: 'Webhook delivery attempts by result: delivered, retry (a later attempt is scheduled), gave_up.',
  labelNames: ['result'] as const,
  registers,
});

export const countWebhookAttempt = (result: 'delivered' | 'retry' | 'gave_up'): void => webhookAttempts.inc({ result });

const webhookLag = new Histogram({
  name: 'mailbox_webhook_lag_seconds',
  help: 'From an event written to its webhook delivery acknowledged by the endpoint.',
  buckets: LAG_BUCKETS,
  registers,
});

export const observeWebhookLag = (lagMs: number): void => webhookLag.observe(Math.max(0, lagMs) / 1000);

const realtimeSockets = new Gauge({
  name: 'mailbox_realtime_sockets',
  help: 'Realtime sockets (GET /v1/events/ws) open now on this front end.',
  registers,
});
const realtimeReaders = new Gauge({
  name: 'mailbox_realtime_readers',
  help: 'Blocking readers of a space stream (one per space with an authenticated socket here), each holding a Redis connection.',
  registers,
});
const realtimeCloses = new Counter({
  name: 'mailbox_realtime_closes_total',
  help: 'Realtime sockets closed by the server, by close code (4000 backpressure, 4001 revoked, 4401 unauthorized, 1013 try later, 1001 shutdown).',
  labelNames: ['code'] as const,
  registers,
});

export const realtimeSocketOpened = (): void => realtimeSockets.inc();
export const realtimeSocketClosed = (): void => realtimeSockets.dec();
export const realtimeReaderStarted = (): void => realtimeReaders.inc();
export const realtimeReaderStopped = (): void => realtimeReaders.dec();
export const countRealtimeClose = (code: number): void => realtimeCloses.inc({ code: String(code) });
