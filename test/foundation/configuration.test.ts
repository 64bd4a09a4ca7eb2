/**
 * The configuration's one schema (src/settings.ts): README's table is the one it writes, every variable
 * the service reads is in it, and what does not fit stops the start with a French sentence naming the
 * variable (docs: README, "Configuration").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { ROOT } from '../../src/paths.js';
import { SETTINGS } from '../../src/settings.js';
import { README, settingsTable, tableInReadme } from '../../src/settings-table.js';

/** Read outside the schema, each for its reason (README, "Configuration" and "The CLI for users"). */
const READ_ELSEWHERE: Record<string, string> = {
  MAILBOX_URL: "the user CLI's service address, not the service's",
  MAILBOX_KEY: "the user CLI's API key, not the service's",
  MAILBOX_FAULT_AT: 'a test hook of the delivery worker',
  AWS_ENDPOINT_URL_S3: "the AWS SDK's own variables, read by the S3 blob store as the SDK documents them",
  AWS_ENDPOINT_URL: "the AWS SDK's own variables",
  AWS_REGION: "the AWS SDK's own variables",
  AWS_DEFAULT_REGION: "the AWS SDK's own variables",
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js)$/.test(name) ? [path] : [];
  });
}

t.test("README's table is the one the schema writes (npm run config:docs)", async (t) => {
  t.equal(tableInReadme(readFileSync(README, 'utf8')), settingsTable());
});

t.test('every variable the service reads is in the schema, or read elsewhere for a stated reason', async (t) => {
  const named = new Set(Object.keys(SETTINGS.properties));
  for (const file of [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'bin'))]) {
    if (file.endsWith('settings.ts')) continue;
    const text = readFileSync(file, 'utf8');
    for (const [, name] of text.matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]{2,})/g)) {
      t.ok(named.has(name!) || name! in READ_ELSEWHERE, `${relative(ROOT, file)} reads ${name}`);
    }
  }
  for (const name of Object.keys(READ_ELSEWHERE)) t.notOk(named.has(name), `${name} is not in the schema too`);
});

t.test('unset, each variable takes its default', async (t) => {
  const config = loadConfig({});
  t.equal(config.port, 8080);
  t.equal(config.httpEngine, 'auto');
  t.equal(config.logLevel, 'info');
  t.equal(config.webhooksEnabled, true);
  t.equal(config.webhookAllowLoopback, false);
  t.same(config.webhookRetryScheduleMs, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  t.same(config.anonymous.budgets.register, {
    perAddress: { burst: 30, periodMs: 3_600_000 },
    service: { burst: 3600, periodMs: 3_600_000 },
  });
  t.equal(config.submissionPort, null);
  t.equal(config.commonDomain, 'agents.mailbox.localhost');
  t.equal(
    loadConfig({ COMMON_DOMAIN: '' }).commonDomain,
    '',
    'an empty COMMON_DOMAIN disables it, unlike other empty values',
  );
  t.equal(loadConfig({ PORT: '' }).port, 8080, 'an empty value is unset');
});

t.test('what does not fit stops the start with a French sentence naming the variable', async (t) => {
  const refused = (env: Record<string, string>, message: RegExp | string, what: string) =>
    t.throws(() => loadConfig(env), { message }, what);
  refused({ PORT: 'huit' }, 'PORT doit être un entier de 0 à 65535 ; reçu « huit ».', 'not a number');
  refused({ PORT: '70000' }, 'PORT doit être un entier de 0 à 65535 ; reçu « 70000 ».', 'out of range');
  refused(
    { SMTP_MAX_CONNECTIONS: '0' },
    "SMTP_MAX_CONNECTIONS doit être un entier d'au moins 1 ; reçu « 0 ».",
    'below its least',
  );
  refused(
    { SPACING_SECONDS: '1.5' },
    'SPACING_SECONDS doit être un entier positif ou nul ; reçu « 1.5 ».',
    'not an integer',
  );
  refused(
    { LOG_LEVEL: 'verbose' },
    "LOG_LEVEL doit être l'une des valeurs debug, info, warn, error, silent ; reçu « verbose ».",
    'an unknown choice',
  );
  refused(
    { WEBHOOKS_ENABLED: 'peut-être' },
    'WEBHOOKS_ENABLED doit être 1, true, yes, on ou 0, false, no, off ; reçu « peut-être ».',
    'a flag',
  );
  refused(
    { WEBHOOK_INDEX: 'Deux Mots' },
    'WEBHOOK_INDEX doit être 1 à 32 caractères parmi a-z, 0-9 et - ; reçu « Deux Mots ».',
    'a pattern',
  );
  refused(
    { RATE_LIMIT_SIGNIN: '30/h' },
    /^RATE_LIMIT_SIGNIN doit être deux budgets comme 60\/h,3600\/h/,
    'one budget of two',
  );
  refused(
    { WEBHOOK_LEASE_MS: '20000' },
    /^WEBHOOK_LEASE_MS doit être au moins trois fois WEBHOOK_TIMEOUT_MS \(30000\)/,
    'two variables together',
  );
  refused(
    { SEND_WINDOW: 'parfois' },
    /^SEND_WINDOW doit être always ou .*forme non reconnue.* ; reçu « parfois »/,
    'a window',
  );
  refused(
    { SEND_WINDOW: 'mon-xyz 09:00-18:00 Europe/Paris' },
    /jour inconnu|plage de jours/,
    'a window with an unknown day',
  );
  refused(
    { SMTP_TLS_KEY_FILE: '/tmp/key.pem' },
    /SMTP_TLS_KEY_FILE et SMTP_TLS_CERT_FILE vont ensemble/,
    'a pair half set',
  );
});

t.test("a secret's value is never repeated by the error", async (t) => {
  for (const [name, value] of [
    ['OUTBOUND', 'smtp://user:motdepasse@'],
    ['MAILBOX_MASTER_KEY', 'c2VjcmV0LWNvdXJ0'],
  ] as const) {
    t.throws(() => loadConfig({ [name]: value }), { message: new RegExp(`^${name} doit être`) }, name);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      t.notMatch((error as Error).message, value, `${name}: the value is not shown`);
    }
  }
});
