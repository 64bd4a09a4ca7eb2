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
  smtpPort: number;
  redisUrl: string | null;
  redisClusterNodes: { host: string; port: number }[] | null;
  baseUrl: string;
  masterKey: Buffer | null;
  /** The shared domain of the deployment; '' when COMMON_DOMAIN='' disables it. */
  commonDomain: string;
  serviceDomains: string[];
  mxHost: string;
  /** The host a space's SPF record must include (`include:<spfHost>`). */
  spfHost: string;
  /** Resolvers for domain checks, `host:port` each; null = the system's. */
  dnsServers: string[] | null;
  sendWindow: SendWindow;
  spacingSeconds: number;
  webhooksEnabled: boolean;
  webhookAllowLoopback: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  maxBodyBytes: number;
  plans: Record<string, Plan>;
  limits: Limits;
  dataDir: string;
}

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

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
function logLevel(raw: string | undefined): Config['logLevel'] {
  if (!raw) return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return raw as Config['logLevel'];
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const host = env.HOST || '127.0.0.1';
  // Unset: the default common domain; set to '' it is disabled (spaces then need their own domain).
  const commonDomain = (env.COMMON_DOMAIN ?? 'agents.mailbox.localhost').trim().toLowerCase();
  const serviceDomains = list(env.SERVICE_DOMAINS || `mailbox.localhost,${commonDomain}`);
  return {
    port,
    host,
    smtpPort: int(env, 'SMTP_PORT', 2525),
    redisUrl: env.REDIS_URL || null,
    redisClusterNodes: parseNodes(env.REDIS_CLUSTER_NODES),
    // A wildcard listen address is no address to give agents: default links then name localhost.
    baseUrl: (env.BASE_URL || `http://${['0.0.0.0', '::'].includes(host) ? 'localhost' : host}:${port}`).replace(/\/+$/, ''),
    masterKey: parseMasterKey(env.MAILBOX_MASTER_KEY),
    commonDomain,
    serviceDomains,
    mxHost: (env.MX_HOST || `mx.${commonDomain || serviceDomains[0] || 'mailbox.localhost'}`).toLowerCase(),
    spfHost: (env.SPF_HOST || `_spf.${serviceDomains[0] || 'mailbox.localhost'}`).toLowerCase(),
    dnsServers: parseDnsServers(env.DNS_SERVERS),
    sendWindow: parseSendWindow(env.SEND_WINDOW || 'mon-fri 09:00-18:00 Europe/Paris holidays:fr'),
    spacingSeconds: int(env, 'SPACING_SECONDS', 600),
    webhooksEnabled: flag(env, 'WEBHOOKS_ENABLED', true),
    webhookAllowLoopback: flag(env, 'WEBHOOK_ALLOW_LOOPBACK', false),
    logLevel: logLevel(env.LOG_LEVEL),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 2 * 1024 * 1024),
    plans: parsePlans(env.PLANS),
    limits: {
      ...DEFAULT_LIMITS,
      keys_created_per_24h: int(env, 'KEYS_CREATED_PER_24H', DEFAULT_LIMITS.keys_created_per_24h),
    },
    dataDir: env.MAILBOX_DATA_DIR || 'var',
  };
}
