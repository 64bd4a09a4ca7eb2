import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseSendWindow, type SendWindow } from './sending/window.js';

/** Configuration by environment (decisions.md 8), read once at start; the README lists every variable. */
export interface Plan {
  name: string;
  inbox_cap: number;
  daily_max: number;
  price_id: string | null;
}

export interface Config {
  port: number;
  host: string;
  /** HTTP_ENGINE: which server answers HTTP (src/http/uws.ts). */
  httpEngine: HttpEngineChoice;
  smtpPort: number;
  /** Where the SMTP server listens (SMTP_HOST, default HOST; 0.0.0.0 in production to receive mail). */
  smtpHost: string;
  /** What one inbound message may hold before any parser sees it (src/smtp/bounds.ts; 552 or 554 beyond). */
  smtpMessage: MessageLimits;
  /** What one inbound SMTP session may take (src/smtp/stages.ts; 421 beyond). */
  smtpSession: SessionLimits;
  /** STARTTLS is offered only when both files are configured. */
  smtpTls: { keyFile: string; certFile: string } | null;
  /** The operator's DKIM key (parsed once: a PEM parse costs more than the signature) for common-domain and service mail; null: those leave unsigned. */
  serviceDkim: { privateKey: KeyObject; selector: string } | null;
  redisUrl: string | null;
  redisClusterNodes: { host: string; port: number }[] | null;
  baseUrl: string;
  /** How long a human stays signed in on the service's pages (sign-in, consent, workspace), ms. */
  humanSessionMs: number;
  masterKey: Buffer | null;
  /** The shared domain of the deployment; '' when COMMON_DOMAIN='' disables it. */
  commonDomain: string;
  serviceDomains: string[];
  mxHost: string;
  /** The host a space's SPF record must include (`include:<spfHost>`). */
  spfHost: string;
  /** Resolvers for domain checks and direct delivery, `host:port` each; null = the system's. */
  dnsServers: string[] | null;
  /** How outgoing mail leaves (src/delivery/transports.ts). */
  outbound: Outbound;
  /** The port direct delivery connects to on the recipient's MX (25; tests use a loopback port). */
  directPort: number;
  /** The name given in EHLO by direct delivery and the relay. */
  heloName: string;
  sendWindow: SendWindow;
  spacingSeconds: number;
  /** How long a delivery worker holds a message it took before another may take it again (actors/delivery.ts). */
  deliveryLeaseMs: number;
  /** A campaign keeps at most this many days of each inbox's quota queued (actors/campaign-feed.ts): pause acts at once, single sends still fit. */
  campaignQueueDays: number;
  /** How often the feeder visits the running campaigns (src/workers/campaigns.ts). */
  campaignFeedMs: number;
  webhooksEnabled: boolean;
  webhookAllowLoopback: boolean;
  /** Plain http:// webhooks to localhost: only `mailbox serve --dev` turns it on (src/cli/dev.ts), never the environment. */
  webhookAllowHttpLocalhost: boolean;
  /** Waits before each retry of a failed webhook delivery (ms); one more failure gives up. */
  webhookRetryScheduleMs: number[];
  /** A delivery answered 2xx within this time succeeds. */
  webhookTimeoutMs: number;
  /** How long a worker holds a space's deliveries before another worker may take them over. */
  webhookLeaseMs: number;
  /** Extra certificate authorities (PEM) webhook receivers may present, besides the system's; tests use it. */
  webhookCa: string | null;
  /** The name of the wake index the webhook workers share (src/redis/keys.ts); one per deployment. */
  webhookIndex: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  maxBodyBytes: number;
  plans: Record<string, Plan>;
  /** Stripe Checkout for subscribe (with the plans' price ids); null: billing_unavailable. */
  stripeSecretKey: string | null;
  /** Stripe's API root; another one for stripe-mock or a test double. */
  stripeApiUrl: string;
  /** The signing secret of Stripe's webhook (`whsec_...`); null: POST /billing/stripe answers billing_unavailable. */
  stripeWebhookSecret: string | null;
  /** Per-key request budget, a token bucket in Redis shared by every front end (lua/space/authenticate-5.lua). */
  rateLimit: { burst: number; perSecond: number };
  /** The realtime socket `GET /v1/events/ws` (src/http/realtime.ts; docs/operations.md). */
  realtime: RealtimeLimits;
  /** The bearer token `GET /metrics` asks for (METRICS_TOKEN); null: open on the listen address. */
  metricsToken: string | null;
  limits: Limits;
  dataDir: string;
  /** Where mail content lives (src/blobs/): files under <dataDir>/blobs, or an S3 bucket (BLOB_STORE=s3://bucket/prefix). */
  blobStore: BlobStoreChoice;
  /** ATTACHMENT_MAX_BYTES: the decoded size of every file of one outgoing message together. */
  attachmentMaxBytes: number;
  /**
   * SEARCH_TAIL_POSTINGS: the newest document numbers search_threads reads of each posting at first
   * (3 bytes each); a query that needs older ones reads its postings whole (actors/search.ts).
   */
  searchTailPostings: number;
  /** The workspace's instances and waits (decisions.md 12; src/workspace/, actors/workspace.ts). */
  workspace: WorkspaceSettings;
}

export interface WorkspaceSettings {
  /** An instance expires this long after the view's last call (30 min). */
  ttlMs: number;
  /** How long workspace_events holds a view's call when nothing is new (18 s). */
  waitMs: number;
  /** Open instances per space (429 beyond) and in the whole service (WORKSPACE_MAX_INSTANCES, 503 beyond). */
  perSpace: number;
  maxInstances: number;
  /** Simultaneous waits per instance and in the whole service. */
  waitsPerInstance: number;
  maxWaits: number;
  /** The name of the service-wide counters (WORKSPACE_INDEX, `ws`): processes sharing a name share the limits. */
  index: string;
}

export interface MessageLimits {
  /** The whole message, in bytes (SIZE extension). */
  bytes: number;
  /** Header fields in one header section (the message's, or one part's). */
  headers: number;
  /** One header field, folded lines included, in bytes. */
  headerBytes: number;
  /** One header section, in bytes. */
  headerSectionBytes: number;
  /** Addresses in one address field (From, To, Cc...). */
  addressesPerHeader: number;
  /** Nested multiparts and embedded messages. */
  mimeDepth: number;
  /** MIME parts in the whole message. */
  mimeParts: number;
}

export interface SessionLimits {
  /** A session's whole life, however busy, in ms. */
  maxMs: number;
  /** The least average rate of DATA, judged once `dataGraceMs` have passed. */
  dataMinBytesPerSecond: number;
  dataGraceMs: number;
  /** Open sessions in all, and from one client address. */
  connections: number;
  connectionsPerAddress: number;
  /** Each unknown recipient of a session is answered this much later than the one before. */
  unknownRecipientDelayMs: number;
  /** The unknown recipient that closes the session. */
  unknownRecipients: number;
}

export interface RealtimeLimits {
  /** How long a socket opened without a key may wait for its `auth` message (WS_AUTH_TIMEOUT_MS). */
  authTimeoutMs: number;
  /** Bytes a socket may hold unsent before it is closed with 4000, "resume from your cursor" (WS_MAX_BUFFERED_BYTES). */
  maxBufferedBytes: number;
  /** How often a front end checks that its sockets' keys still exist: a revoked key's sockets close within this and a round trip. */
  revocationCheckMs: number;
  /** How long one blocking read of a space's stream waits; under the connections' 5 s command timeout. */
  blockMs: number;
}

/** `auto`: uWebSockets.js when a build loads on this Node, else node:http with a warning. */
export type HttpEngineChoice = 'auto' | 'uws' | 'node';

/** OUTBOUND: `outbox` (.eml files under <MAILBOX_DATA_DIR>/outbox), an SMTP relay URL, or `direct` MX delivery. */
export type Outbound = { kind: 'outbox' } | { kind: 'smtp'; url: string } | { kind: 'direct' };

/** Limits in force, reported by get_settings; the spec fixes some, the rest are ours (docs/operations.md). */
export interface Limits {
  active_keys: number;
  key_name_chars: number;
  daily_cap_max: number;
  keys_created_per_24h: number;
  webhooks_declared_per_24h: number;
  list_events_max: number;
}

export const DEFAULT_PLANS: Record<string, Plan> = {
  starter: { name: 'starter', inbox_cap: 3, daily_max: 20, price_id: null },
  pro: { name: 'pro', inbox_cap: 25, daily_max: 20, price_id: null },
  scale: { name: 'scale', inbox_cap: 250, daily_max: 20, price_id: null },
};

/** No plan: one inbox, free (interface.md part 1); anything more asks for a plan. */
export const NO_PLAN: Plan = { name: 'none', inbox_cap: 1, daily_max: 20, price_id: null };

/** The plan a space's `plan` field names; a name no longer configured counts as no plan. */
export const planOf = (config: Config, name: string): Plan => config.plans[name] ?? NO_PLAN;

export const DEFAULT_LIMITS: Limits = {
  active_keys: 20,
  key_name_chars: 60,
  daily_cap_max: 10000,
  keys_created_per_24h: 50,
  webhooks_declared_per_24h: 20,
  list_events_max: 200,
};

type Env = Record<string, string | undefined>;

const int = (env: Env, name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
};

const flag = (env: Env, name: string, fallback: boolean): boolean => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
};

const list = (raw: string | undefined): string[] =>
  (raw ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

function parseNodes(raw: string | undefined): { host: string; port: number }[] | null {
  const nodes = list(raw).map((entry) => {
    const at = entry.lastIndexOf(':');
    const port = Number(entry.slice(at + 1));
    if (at < 1 || !Number.isInteger(port)) throw new Error(`REDIS_CLUSTER_NODES entry "${entry}" is not host:port`);
    return { host: entry.slice(0, at), port };
  });
  return nodes.length ? nodes : null;
}

/** `DNS_SERVERS=127.0.0.1:5353,[::1]:53`: node's Resolver takes these spellings as they are. */
function parseDnsServers(raw: string | undefined): string[] | null {
  const servers = list(raw);
  for (const entry of servers) {
    if (!/^(\[[0-9a-f:.]+\]|[0-9.]+|[0-9a-f:]+)(:\d{1,5})?$/.test(entry)) throw new Error(`DNS_SERVERS entry "${entry}" is not an IP address with an optional :port`);
  }
  return servers.length ? servers : null;
}

export type BlobStoreChoice = { kind: 'files' } | { kind: 's3'; bucket: string; prefix: string };

/** '' (files under MAILBOX_DATA_DIR/blobs) or `s3://bucket/prefix`. */
function parseBlobStore(raw: string | undefined): BlobStoreChoice {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'files') return { kind: 'files' };
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(value);
  if (!match) throw new Error('BLOB_STORE must be empty (files under MAILBOX_DATA_DIR/blobs) or s3://bucket/prefix');
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { kind: 's3', bucket: match[1]!, prefix: prefix ? `${prefix}/` : '' };
}

/** The relay URL carries a password: an error names the variable, never the value. */
function parseOutbound(raw: string | undefined): Outbound {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'outbox') return { kind: 'outbox' };
  if (value === 'direct') return { kind: 'direct' };
  if (/^smtps?:\/\//i.test(value)) {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      // Reported below without the value.
    }
    if (url?.hostname) return { kind: 'smtp', url: value };
  }
  throw new Error('OUTBOUND must be outbox, direct, or smtp://user:pass@host:port (smtps:// for TLS from the start)');
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `5s,5m,30m,2h`: the webhook retry waits, in ms. */
function parseDurations(name: string, raw: string): number[] {
  return raw.split(',').map((entry) => {
    const match = /^\s*(\d+)(ms|s|m|h)\s*$/.exec(entry);
    if (!match) throw new Error(`${name} must be durations like 5s,5m,2h (units ms, s, m, h), got "${raw}"`);
    return Number(match[1]) * DURATION_UNITS[match[2]!]!;
  });
}

function parseMasterKey(raw: string | undefined): Buffer | null {
  if (!raw) return null;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error('MAILBOX_MASTER_KEY must be 32 bytes in base64');
  return key;
}

function parsePlans(raw: string | undefined): Record<string, Plan> {
  if (!raw) return DEFAULT_PLANS;
  const parsed = JSON.parse(raw) as Record<string, Partial<Plan>>;
  const plans: Record<string, Plan> = {};
  for (const [name, plan] of Object.entries(parsed)) {
    for (const field of ['inbox_cap', 'daily_max'] as const) {
      const value = plan[field] ?? (field === 'daily_max' ? 20 : undefined);
      if (!Number.isInteger(value) || value! < 1) throw new Error(`PLANS: plan "${name}" needs a positive integer ${field}`);
    }
    plans[name] = { name, inbox_cap: plan.inbox_cap!, daily_max: plan.daily_max ?? 20, price_id: plan.price_id ?? null };
  }
  return plans;
}

function httpEngine(raw: string | undefined): HttpEngineChoice {
  const value = raw || 'auto';
  if (value !== 'auto' && value !== 'uws' && value !== 'node') throw new Error(`HTTP_ENGINE must be uws or node (unset: auto), got "${raw}"`);
  return value;
}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
function logLevel(raw: string | undefined): Config['logLevel'] {
  if (!raw) return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return raw as Config['logLevel'];
}

/** decisions.md 5: retries for about a day, 10 s to answer. */
const WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

function webhookIndex(raw: string | undefined): string {
  const name = raw || 'wh';
  if (!/^[a-z0-9-]{1,32}$/.test(name)) throw new Error('WEBHOOK_INDEX must be 1 to 32 of a-z, 0-9 and -');
  return name;
}

function workspaceSettings(env: Env): WorkspaceSettings {
  const index = env.WORKSPACE_INDEX || 'ws';
  if (!/^[a-z0-9-]{1,32}$/.test(index)) throw new Error('WORKSPACE_INDEX must be 1 to 32 of a-z, 0-9 and -');
  return {
    ttlMs: 30 * 60_000,
    waitMs: int(env, 'WORKSPACE_WAIT_MS', 18_000),
    perSpace: 10,
    maxInstances: int(env, 'WORKSPACE_MAX_INSTANCES', 10_000),
    waitsPerInstance: 2,
    maxWaits: 64,
    index,
  };
}

function webhookDelivery(env: Env) {
  const timeoutMs = int(env, 'WEBHOOK_TIMEOUT_MS', 10_000);
  const leaseMs = int(env, 'WEBHOOK_LEASE_MS', 60_000);
  // A claim stops starting deliveries a timeout before its lease ends, with a timeout to spare.
  if (leaseMs < 3 * timeoutMs) throw new Error('WEBHOOK_LEASE_MS must be at least three times WEBHOOK_TIMEOUT_MS');
  return {
    webhookRetryScheduleMs: parseDurations('WEBHOOK_RETRY_SCHEDULE', env.WEBHOOK_RETRY_SCHEDULE || WEBHOOK_RETRY_SCHEDULE),
    webhookTimeoutMs: timeoutMs,
    webhookLeaseMs: leaseMs,
    webhookCa: env.WEBHOOK_CA_FILE ? readFileSync(env.WEBHOOK_CA_FILE, 'utf8') : null,
    webhookIndex: webhookIndex(env.WEBHOOK_INDEX),
  };
}

/**
 * Longer than a delivery can last (the SMTP timeouts of src/delivery/transports.ts, some 3.5 min for
 * direct delivery), or a living worker's slow delivery is taken again and sent twice; the kill drills
 * shorten it to see a dead worker's messages leave within seconds.
 */
function deliveryLease(env: Env): number {
  const leaseMs = int(env, 'DELIVERY_LEASE_MS', 5 * 60_000);
  if (leaseMs < 1000) throw new Error('DELIVERY_LEASE_MS must be at least 1000');
  return leaseMs;
}

/** Generous by default: an agent's normal pace never meets it; a loop gone wild does. */
function rateLimit(env: Env): Config['rateLimit'] {
  const burst = int(env, 'RATE_LIMIT_BURST', 600);
  const perSecond = int(env, 'RATE_LIMIT_PER_SECOND', 100);
  if (burst < 1 || perSecond < 1) throw new Error('RATE_LIMIT_BURST and RATE_LIMIT_PER_SECOND must be at least 1');
  return { burst, perSecond };
}

/** A second to notice a revoked key (the bound), half of it between checks. */
function realtime(env: Env): RealtimeLimits {
  const limits = {
    authTimeoutMs: int(env, 'WS_AUTH_TIMEOUT_MS', 5000),
    maxBufferedBytes: int(env, 'WS_MAX_BUFFERED_BYTES', 1024 * 1024),
    revocationCheckMs: 500,
    blockMs: 2000,
  };
  if (limits.authTimeoutMs < 1 || limits.maxBufferedBytes < 1) throw new Error('WS_AUTH_TIMEOUT_MS and WS_MAX_BUFFERED_BYTES must be at least 1');
  return limits;
}

/** SMTP_TLS_KEY_FILE and SMTP_TLS_CERT_FILE (PEM) go together: one without the other is a mistake. */
function smtpTls(env: Env): Config['smtpTls'] {
  const keyFile = env.SMTP_TLS_KEY_FILE || '';
  const certFile = env.SMTP_TLS_CERT_FILE || '';
  if (!keyFile && !certFile) return null;
  if (!keyFile || !certFile) throw new Error('SMTP_TLS_KEY_FILE and SMTP_TLS_CERT_FILE must be set together');
  return { keyFile, certFile };
}

/** Far above any real message or sender; what lies beyond is a stall or a harvest (docs/operations.md). */
function smtpMessage(env: Env): MessageLimits {
  return {
    bytes: int(env, 'SMTP_MAX_BYTES', 25 * 1024 * 1024),
    headers: int(env, 'SMTP_MAX_HEADERS', 1000),
    headerBytes: int(env, 'SMTP_MAX_HEADER_BYTES', 64 * 1024),
    headerSectionBytes: int(env, 'SMTP_MAX_HEADER_SECTION_BYTES', 256 * 1024),
    addressesPerHeader: int(env, 'SMTP_MAX_ADDRESSES_PER_HEADER', 1000),
    mimeDepth: int(env, 'SMTP_MAX_MIME_DEPTH', 20),
    mimeParts: int(env, 'SMTP_MAX_MIME_PARTS', 1000),
  };
}

function smtpSession(env: Env): SessionLimits {
  const limits = {
    maxMs: int(env, 'SMTP_SESSION_MAX_MS', 10 * 60_000),
    dataMinBytesPerSecond: int(env, 'SMTP_DATA_MIN_BYTES_PER_SECOND', 1024),
    dataGraceMs: int(env, 'SMTP_DATA_GRACE_MS', 30_000),
    connections: int(env, 'SMTP_MAX_CONNECTIONS', 1000),
    connectionsPerAddress: int(env, 'SMTP_MAX_CONNECTIONS_PER_ADDRESS', 20),
    unknownRecipientDelayMs: int(env, 'SMTP_UNKNOWN_RECIPIENT_DELAY_MS', 1000),
    unknownRecipients: int(env, 'SMTP_MAX_UNKNOWN_RECIPIENTS', 10),
  };
  if (limits.maxMs < 1 || limits.connections < 1 || limits.connectionsPerAddress < 1 || limits.unknownRecipients < 1) {
    throw new Error('SMTP_SESSION_MAX_MS, SMTP_MAX_CONNECTIONS, SMTP_MAX_CONNECTIONS_PER_ADDRESS and SMTP_MAX_UNKNOWN_RECIPIENTS must be at least 1');
  }
  return limits;
}

/**
 * SERVICE_DKIM_KEY_FILE (a PEM RSA private key: nodemailer signs rsa-sha256 only) signs mail from
 * common-domain inboxes and the service's own mail, with SERVICE_DKIM_SELECTOR (default `mailbox`).
 * Read and checked here, once, so a bad file stops the start, not a delivery; kept in memory like
 * MAILBOX_MASTER_KEY, never logged.
 */
function serviceDkim(env: Env): Config['serviceDkim'] {
  const keyFile = env.SERVICE_DKIM_KEY_FILE || '';
  if (!keyFile) return null;
  const privateKey = createPrivateKey(readFileSync(keyFile, 'utf8'));
  if (privateKey.asymmetricKeyType !== 'rsa') throw new Error('SERVICE_DKIM_KEY_FILE must hold an RSA private key');
  const selector = (env.SERVICE_DKIM_SELECTOR || 'mailbox').toLowerCase();
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(selector)) throw new Error('SERVICE_DKIM_SELECTOR must be one DNS label');
  return { privateKey, selector };
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const host = env.HOST || '127.0.0.1';
  // Unset: the default common domain; set to '' it is disabled (spaces then need their own domain).
  const commonDomain = (env.COMMON_DOMAIN ?? 'agents.mailbox.localhost').trim().toLowerCase();
  const serviceDomains = list(env.SERVICE_DOMAINS || `mailbox.localhost,${commonDomain}`);
  const mxHost = (env.MX_HOST || `mx.${commonDomain || serviceDomains[0] || 'mailbox.localhost'}`).toLowerCase();
  return {
    port,
    host,
    httpEngine: httpEngine(env.HTTP_ENGINE),
    smtpPort: int(env, 'SMTP_PORT', 2525),
    smtpHost: env.SMTP_HOST || host,
    smtpMessage: smtpMessage(env),
    smtpSession: smtpSession(env),
    smtpTls: smtpTls(env),
    serviceDkim: serviceDkim(env),
    redisUrl: env.REDIS_URL || null,
    redisClusterNodes: parseNodes(env.REDIS_CLUSTER_NODES),
    // A wildcard listen address is no address to give agents: default links then name localhost.
    baseUrl: (env.BASE_URL || `http://${['0.0.0.0', '::'].includes(host) ? 'localhost' : host}:${port}`).replace(/\/+$/, ''),
    humanSessionMs: int(env, 'HUMAN_SESSION_HOURS', 12) * 3600_000,
    masterKey: parseMasterKey(env.MAILBOX_MASTER_KEY),
    commonDomain,
    serviceDomains,
    mxHost,
    spfHost: (env.SPF_HOST || `_spf.${serviceDomains[0] || 'mailbox.localhost'}`).toLowerCase(),
    dnsServers: parseDnsServers(env.DNS_SERVERS),
    outbound: parseOutbound(env.OUTBOUND),
    directPort: int(env, 'DIRECT_PORT', 25),
    heloName: (env.HELO_NAME || mxHost).toLowerCase(),
    sendWindow: parseSendWindow(env.SEND_WINDOW || 'mon-fri 09:00-18:00 Europe/Paris holidays:fr'),
    spacingSeconds: int(env, 'SPACING_SECONDS', 600),
    deliveryLeaseMs: deliveryLease(env),
    campaignQueueDays: int(env, 'CAMPAIGN_QUEUE_DAYS', 1),
    campaignFeedMs: int(env, 'CAMPAIGN_FEED_SECONDS', 60) * 1000,
    webhooksEnabled: flag(env, 'WEBHOOKS_ENABLED', true),
    webhookAllowLoopback: flag(env, 'WEBHOOK_ALLOW_LOOPBACK', false),
    webhookAllowHttpLocalhost: false,
    ...webhookDelivery(env),
    logLevel: logLevel(env.LOG_LEVEL),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 2 * 1024 * 1024),
    plans: parsePlans(env.PLANS),
    stripeSecretKey: env.STRIPE_SECRET_KEY || null,
    stripeApiUrl: (env.STRIPE_API_URL || 'https://api.stripe.com/v1').replace(/\/+$/, ''),
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || null,
    rateLimit: rateLimit(env),
    realtime: realtime(env),
    metricsToken: env.METRICS_TOKEN || null,
    limits: {
      ...DEFAULT_LIMITS,
      keys_created_per_24h: int(env, 'KEYS_CREATED_PER_24H', DEFAULT_LIMITS.keys_created_per_24h),
      webhooks_declared_per_24h: int(env, 'WEBHOOKS_DECLARED_PER_24H', DEFAULT_LIMITS.webhooks_declared_per_24h),
    },
    dataDir: env.MAILBOX_DATA_DIR || 'var',
    blobStore: parseBlobStore(env.BLOB_STORE),
    attachmentMaxBytes: int(env, 'ATTACHMENT_MAX_BYTES', 10 * 1024 * 1024),
    searchTailPostings: int(env, 'SEARCH_TAIL_POSTINGS', 4096),
    workspace: workspaceSettings(env),
  };
}
