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
  commonDomain: string;
  serviceDomains: string[];
  mxHost: string;
  sendWindow: string;
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
    if (!Number.isInteger(plan.inbox_cap) || !Number.isInteger(plan.daily_max ?? 20)) {
      throw new Error(`PLANS: plan "${name}" needs an integer inbox_cap`);
    }
    plans[name] = { name, inbox_cap: plan.inbox_cap!, daily_max: plan.daily_max ?? 20, price_id: plan.price_id ?? null };
  }
  return plans;
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const host = env.HOST || '127.0.0.1';
  const commonDomain = (env.COMMON_DOMAIN || 'agents.mailbox.localhost').toLowerCase();
  return {
    port,
    host,
    smtpPort: int(env, 'SMTP_PORT', 2525),
    redisUrl: env.REDIS_URL || null,
    redisClusterNodes: parseNodes(env.REDIS_CLUSTER_NODES),
    baseUrl: (env.BASE_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
    masterKey: parseMasterKey(env.MAILBOX_MASTER_KEY),
    commonDomain,
    serviceDomains: list(env.SERVICE_DOMAINS || `mailbox.localhost,${commonDomain}`),
    mxHost: env.MX_HOST || `mx.${commonDomain}`,
    sendWindow: env.SEND_WINDOW || 'mon-fri 09:00-18:00 Europe/Paris holidays:fr',
    spacingSeconds: int(env, 'SPACING_SECONDS', 600),
    webhooksEnabled: flag(env, 'WEBHOOKS_ENABLED', true),
    webhookAllowLoopback: flag(env, 'WEBHOOK_ALLOW_LOOPBACK', false),
    logLevel: (env.LOG_LEVEL as Config['logLevel']) || 'info',
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 2 * 1024 * 1024),
    plans: parsePlans(env.PLANS),
    limits: {
      ...DEFAULT_LIMITS,
      keys_created_per_24h: int(env, 'KEYS_CREATED_PER_24H', DEFAULT_LIMITS.keys_created_per_24h),
    },
    dataDir: env.MAILBOX_DATA_DIR || 'var',
  };
}
