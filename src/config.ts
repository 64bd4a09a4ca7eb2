import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readSettings, settingRefused, type Settings } from './settings.js';
import { parseSendWindow, type SendWindow } from './sending/window.js';

/** Configuration by environment (docs/contract.md, Decision 8), read once at start through src/settings.ts's schema, which writes the README's table. */
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
  /** Time and memory to read untrusted content: MIME, HTML's text, PDF's text (src/mail/extract.ts). */
  content: ContentLimits;
  /**
   * SUBMISSION_PORT: the SMTP submission front end (src/smtp/submission.ts), on SMTP_HOST; null (unset,
   * the default) leaves it off. 587 in production, with SMTP_TLS_* for its STARTTLS.
   */
  submissionPort: number | null;
  /** STARTTLS is offered only when both files are configured (inbound and submission alike). */
  smtpTls: { keyFile: string; certFile: string } | null;
  /** The operator's DKIM key (parsed once: a PEM parse costs more than the signature) for common-domain and service mail; null: those leave unsigned. */
  serviceDkim: { privateKey: KeyObject; selector: string } | null;
  redisUrl: string | null;
  redisClusterNodes: { host: string; port: number }[] | null;
  baseUrl: string;
  /** How long a human stays signed in on the service's pages (sign-in, consent, workspace), ms. */
  humanSessionMs: number;
  masterKey: Buffer | null;
  /** MAILBOX_MASTER_KEY_FILE: where the master key is kept (made on first start when absent); null: MAILBOX_MASTER_KEY or, embedded, <dataDir>/master.key. */
  masterKeyFile: string | null;
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
  /**
   * How long a send waits for a fact shared across spaces (an address claim, a dead-address shard) or
   * for its wake-up, before deciding without it (actors/message.ts, actors/due-index.ts): a Cluster node failing over
   * then delays only its own spaces.
   */
  sharedReadMs: number;
  /** A campaign keeps at most this many days of each inbox's quota queued (actors/campaign-feed.ts): pause acts at once, single sends still fit. */
  campaignQueueDays: number;
  /** How often the feeder visits the running campaigns (src/workers/campaigns.ts). */
  campaignFeedMs: number;
  /** Threads move into history after this long without activity, and this many a minute at most (actors/history.ts). */
  history: { afterMs: number; threadsPerMinute: number; cacheBytes: number };
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
  /** What callers without a key may do: the budgets of the anonymous endpoints and what registrations may hold (docs/operations.md). */
  anonymous: AnonymousLimits;
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
  /**
   * SEARCH_SEGMENT_CACHE_BYTES: the bytes of search segments (actors/search-segments.ts) a process keeps
   * open once read from the blob store, its least recently read closed first.
   */
  searchSegmentCacheBytes: number;
  /** The workspace's instances and waits (docs/contract.md, Decision 12; src/workspace/, actors/workspace.ts). */
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

/** docs/operations.md, "Limits on untrusted content". */
export interface ContentLimits {
  /** Worker threads reading received messages' MIME and HTML's text (CONTENT_WORKERS). */
  workers: number;
  /** One MIME or HTML read, in ms (CONTENT_TIME_LIMIT_MS): past it the thread is ended. */
  timeMs: number;
  /** A content worker's JS heap, in MB (CONTENT_HEAP_MB). */
  heapMb: number;
  /** Elements nested in an HTML document whose text is read (HTML_MAX_DEPTH). */
  htmlDepth: number;
  /** One PDF read, in ms (PDF_TIME_LIMIT_MS). */
  pdfTimeMs: number;
  /** The PDF process's JS heap, in MB (PDF_HEAP_MB). */
  pdfHeapMb: number;
  /** What the PDF process may map beyond its size once started, in MB (PDF_MEMORY_MB): its heap's growth and the streams it inflates. */
  pdfMemoryMb: number;
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
  /** Sockets open at once for one key (WS_MAX_SOCKETS_PER_KEY) and one space (WS_MAX_SOCKETS_PER_SPACE), over every front end. */
  socketsPerKey: number;
  socketsPerSpace: number;
  /** How long a socket's place in those counts lasts unless its front end pushes it on (a third of it apart): a dead front end's sockets free theirs within it. */
  socketLeaseMs: number;
}

/** A token bucket: `burst` requests at once, refilled at `burst` per `periodMs`. */
export interface Budget {
  burst: number;
  periodMs: number;
}

/** An anonymous endpoint's budgets: each client address's, and the whole service's. */
export interface EndpointBudgets {
  perAddress: Budget;
  service: Budget;
}

/** The endpoints a caller reaches without a key, each with its budgets (src/http/anonymous.ts). */
export type AnonymousEndpoint = 'register' | 'authorize' | 'token' | 'signin';

export interface AnonymousLimits {
  budgets: Record<AnonymousEndpoint, EndpointBudgets>;
  /** Registered clients that never got a token, at most; past it the oldest goes (OAUTH_PENDING_CLIENTS). */
  pendingClients: number;
  /**
   * CLIENT_ADDRESS_HEADER: the header a trusted proxy writes the client's address in (its last entry
   * is read); null: the address of the connection itself, the only one a caller cannot forge.
   */
  addressHeader: string | null;
  /** The name of the service-wide budgets and pending registrations (ANONYMOUS_INDEX, `anon`): processes sharing a name share them. */
  index: string;
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
  /** Contacts a space may hold (add_contacts refuses a call that would pass it: contact_limit). */
  contacts_per_space: number;
}

export const DEFAULT_PLANS: Record<string, Plan> = {
  starter: { name: 'starter', inbox_cap: 3, daily_max: 20, price_id: null },
  pro: { name: 'pro', inbox_cap: 25, daily_max: 20, price_id: null },
  scale: { name: 'scale', inbox_cap: 250, daily_max: 20, price_id: null },
};

/** No plan: one inbox, free (docs/contract.md, Part 1); anything more asks for a plan. */
const NO_PLAN: Plan = { name: 'none', inbox_cap: 1, daily_max: 20, price_id: null };

/** The plan a space's `plan` field names; a name no longer configured counts as no plan. */
export const planOf = (config: Config, name: string): Plan => config.plans[name] ?? NO_PLAN;

const DEFAULT_LIMITS: Limits = {
  active_keys: 20,
  key_name_chars: 60,
  daily_cap_max: 10000,
  keys_created_per_24h: 50,
  webhooks_declared_per_24h: 20,
  list_events_max: 200,
  contacts_per_space: 100_000,
};

type Env = Record<string, string | undefined>;

const list = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

function parseNodes(raw: string | undefined): { host: string; port: number }[] | null {
  const nodes = list(raw).map((entry) => {
    const at = entry.lastIndexOf(':');
    const port = Number(entry.slice(at + 1));
    if (at < 1 || !Number.isInteger(port))
      throw new Error(settingRefused('REDIS_CLUSTER_NODES', 'une liste host:port,host:port', entry));
    return { host: entry.slice(0, at), port };
  });
  return nodes.length ? nodes : null;
}

/** `DNS_SERVERS=127.0.0.1:5353,[::1]:53`: node's Resolver takes these spellings as they are. */
function parseDnsServers(raw: string | undefined): string[] | null {
  const servers = list(raw);
  for (const entry of servers) {
    if (!/^(\[[0-9a-f:.]+\]|[0-9.]+|[0-9a-f:]+)(:\d{1,5})?$/.test(entry))
      throw new Error(
        settingRefused('DNS_SERVERS', 'une liste d’adresses IP, chacune avec un :port facultatif', entry),
      );
  }
  return servers.length ? servers : null;
}

export type BlobStoreChoice = { kind: 'files' } | { kind: 's3'; bucket: string; prefix: string };

/** '' (files under MAILBOX_DATA_DIR/blobs) or `s3://bucket/prefix`. */
function parseBlobStore(raw: string | undefined): BlobStoreChoice {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'files') return { kind: 'files' };
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(value);
  if (!match)
    throw new Error(
      settingRefused('BLOB_STORE', 'vide (des fichiers sous MAILBOX_DATA_DIR/blobs) ou s3://bucket/prefix', value),
    );
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { kind: 's3', bucket: match[1]!, prefix: prefix ? `${prefix}/` : '' };
}

/** The relay URL carries a password: an error names the variable, never the value. */
function parseOutbound(raw: string): Outbound {
  const value = raw.trim();
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
  throw new Error(
    settingRefused(
      'OUTBOUND',
      'outbox, direct ou smtp://user:pass@host:port (smtps:// pour TLS dès la connexion)',
      value,
      true,
    ),
  );
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `5s,5m,30m,2h` (checked by its schema): the webhook retry waits, in ms. */
const durations = (text: string): number[] =>
  text.split(',').map((entry) => {
    const [, count, unit] = /^\s*(\d+)(ms|s|m|h)\s*$/.exec(entry)!;
    return Number(count) * DURATION_UNITS[unit!]!;
  });

function parseMasterKey(raw: string | undefined): Buffer | null {
  if (!raw) return null;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error(settingRefused('MAILBOX_MASTER_KEY', '32 octets en base64', raw, true));
  return key;
}

function parsePlans(raw: string | undefined): Record<string, Plan> {
  if (!raw) return DEFAULT_PLANS;
  let parsed: Record<string, Partial<Plan>>;
  try {
    parsed = JSON.parse(raw) as Record<string, Partial<Plan>>;
  } catch {
    throw new Error(
      settingRefused('PLANS', 'un objet JSON {"<plan>":{"inbox_cap":3,"daily_max":20,"price_id":null}}', raw),
    );
  }
  const plans: Record<string, Plan> = {};
  for (const [name, plan] of Object.entries(parsed)) {
    for (const field of ['inbox_cap', 'daily_max'] as const) {
      const value = plan[field] ?? (field === 'daily_max' ? 20 : undefined);
      if (!Number.isInteger(value) || value! < 1)
        throw new Error(
          settingRefused('PLANS', `un objet dont le plan « ${name} » a un ${field} entier d'au moins 1`, raw),
        );
    }
    plans[name] = {
      name,
      inbox_cap: plan.inbox_cap!,
      daily_max: plan.daily_max ?? 20,
      price_id: plan.price_id ?? null,
    };
  }
  return plans;
}

/** SEND_WINDOW's own reading (src/sending/window.ts) tells what it could not read. */
function sendWindow(text: string): SendWindow {
  try {
    return parseSendWindow(text);
  } catch (error) {
    throw new Error(
      settingRefused(
        'SEND_WINDOW',
        `always ou « <jours> <HH:MM>-<HH:MM> <fuseau> [holidays:fr] » (${(error as Error).message})`,
        text,
      ),
      { cause: error },
    );
  }
}

function workspaceSettings(s: Settings): WorkspaceSettings {
  return {
    ttlMs: 30 * 60_000,
    waitMs: s.WORKSPACE_WAIT_MS,
    perSpace: 10,
    maxInstances: s.WORKSPACE_MAX_INSTANCES,
    waitsPerInstance: 2,
    maxWaits: 64,
    index: s.WORKSPACE_INDEX,
  };
}

function webhookDelivery(s: Settings) {
  // A claim stops starting deliveries a timeout before its lease ends, with a timeout to spare.
  if (s.WEBHOOK_LEASE_MS < 3 * s.WEBHOOK_TIMEOUT_MS) {
    throw new Error(
      settingRefused(
        'WEBHOOK_LEASE_MS',
        `au moins trois fois WEBHOOK_TIMEOUT_MS (${3 * s.WEBHOOK_TIMEOUT_MS})`,
        String(s.WEBHOOK_LEASE_MS),
      ),
    );
  }
  return {
    webhookRetryScheduleMs: durations(s.WEBHOOK_RETRY_SCHEDULE),
    webhookTimeoutMs: s.WEBHOOK_TIMEOUT_MS,
    webhookLeaseMs: s.WEBHOOK_LEASE_MS,
    webhookCa: s.WEBHOOK_CA_FILE ? readFileSync(s.WEBHOOK_CA_FILE, 'utf8') : null,
    webhookIndex: s.WEBHOOK_INDEX,
  };
}

const PERIOD_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `60/h,3600/h` (checked by its schema): each client address's budget, then the service's, as requests per period. */
function endpointBudgets(text: string): EndpointBudgets {
  const [perAddress, service] = text.split(',').map((entry) => {
    const [, count, unit] = /^\s*(\d+)\/(s|m|h|d)\s*$/.exec(entry)!;
    return { burst: Number(count), periodMs: PERIOD_UNITS[unit!]! };
  });
  return { perAddress: perAddress!, service: service! };
}

/**
 * Sized for people, not scripts: a human signs in with two or three requests, an assistant registers
 * once per connection and refreshes its token hourly. Assistants that connect from their own servers
 * (claude.ai, ChatGPT) share a few addresses: an operator with many such users raises the first figure.
 */
function anonymousLimits(s: Settings): AnonymousLimits {
  return {
    budgets: {
      register: endpointBudgets(s.RATE_LIMIT_REGISTER),
      authorize: endpointBudgets(s.RATE_LIMIT_AUTHORIZE),
      token: endpointBudgets(s.RATE_LIMIT_TOKEN),
      signin: endpointBudgets(s.RATE_LIMIT_SIGNIN),
    },
    pendingClients: s.OAUTH_PENDING_CLIENTS,
    addressHeader: s.CLIENT_ADDRESS_HEADER?.toLowerCase() ?? null,
    index: s.ANONYMOUS_INDEX,
  };
}

/** A second to notice a revoked key, half of it between checks. */
function realtime(s: Settings): RealtimeLimits {
  return {
    authTimeoutMs: s.WS_AUTH_TIMEOUT_MS,
    maxBufferedBytes: s.WS_MAX_BUFFERED_BYTES,
    revocationCheckMs: 500,
    blockMs: 2000,
    socketsPerKey: s.WS_MAX_SOCKETS_PER_KEY,
    socketsPerSpace: s.WS_MAX_SOCKETS_PER_SPACE,
    socketLeaseMs: 60_000,
  };
}

/** SMTP_TLS_KEY_FILE and SMTP_TLS_CERT_FILE (PEM) go together: one without the other is a mistake. */
function smtpTls(s: Settings): Config['smtpTls'] {
  const keyFile = s.SMTP_TLS_KEY_FILE ?? '';
  const certFile = s.SMTP_TLS_CERT_FILE ?? '';
  if (!keyFile && !certFile) return null;
  if (!keyFile || !certFile)
    throw new Error('SMTP_TLS_KEY_FILE et SMTP_TLS_CERT_FILE vont ensemble : indiquez les deux, ou aucun.');
  return { keyFile, certFile };
}

/** Far above any real message or sender; what lies beyond is a stall or a harvest (docs/operations.md). */
const smtpMessage = (s: Settings): MessageLimits => ({
  bytes: s.SMTP_MAX_BYTES,
  headers: s.SMTP_MAX_HEADERS,
  headerBytes: s.SMTP_MAX_HEADER_BYTES,
  headerSectionBytes: s.SMTP_MAX_HEADER_SECTION_BYTES,
  addressesPerHeader: s.SMTP_MAX_ADDRESSES_PER_HEADER,
  mimeDepth: s.SMTP_MAX_MIME_DEPTH,
  mimeParts: s.SMTP_MAX_MIME_PARTS,
});

/**
 * Some ten times what real mail needs (a 2 MB newsletter's text reads in about 3 s here; a real PDF in
 * under 100 MB), well under what freezes a core for long or swells the process (docs/operations.md).
 */
const contentLimits = (s: Settings): ContentLimits => ({
  workers: s.CONTENT_WORKERS,
  timeMs: s.CONTENT_TIME_LIMIT_MS,
  heapMb: s.CONTENT_HEAP_MB,
  htmlDepth: s.HTML_MAX_DEPTH,
  pdfTimeMs: s.PDF_TIME_LIMIT_MS,
  pdfHeapMb: s.PDF_HEAP_MB,
  pdfMemoryMb: s.PDF_MEMORY_MB,
});

const smtpSession = (s: Settings): SessionLimits => ({
  maxMs: s.SMTP_SESSION_MAX_MS,
  dataMinBytesPerSecond: s.SMTP_DATA_MIN_BYTES_PER_SECOND,
  dataGraceMs: s.SMTP_DATA_GRACE_MS,
  connections: s.SMTP_MAX_CONNECTIONS,
  connectionsPerAddress: s.SMTP_MAX_CONNECTIONS_PER_ADDRESS,
  unknownRecipientDelayMs: s.SMTP_UNKNOWN_RECIPIENT_DELAY_MS,
  unknownRecipients: s.SMTP_MAX_UNKNOWN_RECIPIENTS,
});

/**
 * SERVICE_DKIM_KEY_FILE (a PEM RSA private key: nodemailer signs rsa-sha256 only) signs mail from
 * common-domain inboxes and the service's own mail, with SERVICE_DKIM_SELECTOR. Read and checked here,
 * once, so a bad file stops the start, not a delivery; kept in memory like MAILBOX_MASTER_KEY, never logged.
 */
function serviceDkim(s: Settings): Config['serviceDkim'] {
  if (!s.SERVICE_DKIM_KEY_FILE) return null;
  const privateKey = createPrivateKey(readFileSync(s.SERVICE_DKIM_KEY_FILE, 'utf8'));
  if (privateKey.asymmetricKeyType !== 'rsa')
    throw new Error(
      settingRefused('SERVICE_DKIM_KEY_FILE', 'un fichier PEM de clé privée RSA', s.SERVICE_DKIM_KEY_FILE),
    );
  return { privateKey, selector: s.SERVICE_DKIM_SELECTOR.toLowerCase() };
}

/** The configuration from the environment: every variable read through SETTINGS (src/settings.ts), then derived. */
export function loadConfig(env: Env = process.env): Config {
  const s = readSettings(env);
  const host = s.HOST;
  const commonDomain = s.COMMON_DOMAIN.trim().toLowerCase();
  const serviceDomains = list(s.SERVICE_DOMAINS || `mailbox.localhost,${commonDomain}`);
  const mxHost = (s.MX_HOST || `mx.${commonDomain || serviceDomains[0] || 'mailbox.localhost'}`).toLowerCase();
  return {
    port: s.PORT,
    host,
    httpEngine: s.HTTP_ENGINE,
    smtpPort: s.SMTP_PORT,
    smtpHost: s.SMTP_HOST || host,
    smtpMessage: smtpMessage(s),
    smtpSession: smtpSession(s),
    content: contentLimits(s),
    submissionPort: s.SUBMISSION_PORT ?? null,
    smtpTls: smtpTls(s),
    serviceDkim: serviceDkim(s),
    redisUrl: s.REDIS_URL || null,
    redisClusterNodes: parseNodes(s.REDIS_CLUSTER_NODES),
    // A wildcard listen address is no address to give agents: default links then name localhost.
    baseUrl: (s.BASE_URL || `http://${['0.0.0.0', '::'].includes(host) ? 'localhost' : host}:${s.PORT}`).replace(
      /\/+$/,
      '',
    ),
    humanSessionMs: s.HUMAN_SESSION_HOURS * 3600_000,
    masterKey: parseMasterKey(s.MAILBOX_MASTER_KEY),
    masterKeyFile: s.MAILBOX_MASTER_KEY_FILE ?? null,
    commonDomain,
    serviceDomains,
    mxHost,
    spfHost: (s.SPF_HOST || `_spf.${serviceDomains[0] || 'mailbox.localhost'}`).toLowerCase(),
    dnsServers: parseDnsServers(s.DNS_SERVERS),
    outbound: parseOutbound(s.OUTBOUND),
    directPort: s.DIRECT_PORT,
    heloName: (s.HELO_NAME || mxHost).toLowerCase(),
    sendWindow: sendWindow(s.SEND_WINDOW),
    spacingSeconds: s.SPACING_SECONDS,
    // Longer than a delivery can last (some 3.5 min for direct delivery), or a living worker's slow
    // delivery is taken again and sent twice; the kill drills shorten it.
    deliveryLeaseMs: s.DELIVERY_LEASE_MS,
    sharedReadMs: s.SHARED_READ_MS,
    campaignQueueDays: s.CAMPAIGN_QUEUE_DAYS,
    campaignFeedMs: s.CAMPAIGN_FEED_SECONDS * 1000,
    history: {
      afterMs: s.ARCHIVE_AFTER_DAYS * 86_400_000,
      threadsPerMinute: s.ARCHIVE_THREADS_PER_MINUTE,
      cacheBytes: s.HISTORY_CACHE_MB * 1024 * 1024,
    },
    webhooksEnabled: s.WEBHOOKS_ENABLED,
    webhookAllowLoopback: s.WEBHOOK_ALLOW_LOOPBACK,
    webhookAllowHttpLocalhost: false,
    ...webhookDelivery(s),
    logLevel: s.LOG_LEVEL,
    maxBodyBytes: s.MAX_BODY_BYTES,
    plans: parsePlans(s.PLANS),
    stripeSecretKey: s.STRIPE_SECRET_KEY || null,
    stripeApiUrl: s.STRIPE_API_URL.replace(/\/+$/, ''),
    stripeWebhookSecret: s.STRIPE_WEBHOOK_SECRET || null,
    // Generous by default: an agent's normal pace never meets it; a loop gone wild does.
    rateLimit: { burst: s.RATE_LIMIT_BURST, perSecond: s.RATE_LIMIT_PER_SECOND },
    anonymous: anonymousLimits(s),
    realtime: realtime(s),
    metricsToken: s.METRICS_TOKEN || null,
    limits: {
      ...DEFAULT_LIMITS,
      keys_created_per_24h: s.KEYS_CREATED_PER_24H,
      webhooks_declared_per_24h: s.WEBHOOKS_DECLARED_PER_24H,
      contacts_per_space: s.CONTACTS_PER_SPACE,
    },
    dataDir: s.MAILBOX_DATA_DIR,
    blobStore: parseBlobStore(s.BLOB_STORE),
    attachmentMaxBytes: s.ATTACHMENT_MAX_BYTES,
    searchTailPostings: s.SEARCH_TAIL_POSTINGS,
    searchSegmentCacheBytes: s.SEARCH_SEGMENT_CACHE_BYTES,
    workspace: workspaceSettings(s),
  };
}
