/**
 * Every environment variable the service reads, as one TypeBox schema: its type, bounds, default and
 * the README's words for it (`npm run config:docs` writes README's table from it, and a test checks
 * the two agree). src/config.ts reads the environment through it, then derives what the runtime uses.
 *
 * Options beyond TypeBox's own: `shown` (README's default when it is not the literal default),
 * `expected` (the French words of a pattern, in the start-up error), `secret` (the error never repeats
 * the value), `keepsEmpty` (an empty value is a value, not unset).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const SETTINGS = Type.Object({
  PORT: Type.Integer({ default: 8080, minimum: 0, maximum: 65_535, description: 'HTTP port (`0`: any free port).' }),
  HOST: Type.String({ default: '127.0.0.1', description: 'Listen address; `0.0.0.0` in a container.' }),
  HTTP_ENGINE: Type.Union([Type.Literal('auto'), Type.Literal('uws'), Type.Literal('node')], {
    default: 'auto',
    shown: 'unset (auto)',
    description:
      '`uws` or `node`. Unset: uWebSockets.js when a build loads on this Node (the official package, then the npm build for Node 16-20), else `node:http` with a warning. `uws` and no build loads: the start stops with an error. The start log names the engine ([docs/operations.md](docs/operations.md#http-engine-http_engine)).',
  }),
  BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://\\S+$',
      expected: 'une URL http:// ou https://',
      shown: '`http://<HOST>:<PORT>` (`localhost` for a wildcard `HOST`)',
      description:
        'Public URL, used in `mcp_url`, links and the OpenAPI `servers`. Set it behind a proxy. An `http://` URL on a host other than localhost, `*.localhost`, 127.x or `::1` logs a warning at start: unsubscribe links must be https (Gmail and Yahoo require it).',
    }),
  ),
  REDIS_URL: Type.Optional(
    Type.String({
      description:
        '`redis://…`, or a unix socket path (`/path/redis.sock`, `unix:///path`). Unset, with no cluster: the embedded `redis-server`.',
    }),
  ),
  REDIS_CLUSTER_NODES: Type.Optional(
    Type.String({ description: '`host:port,host:port,…` of a Redis Cluster; wins over `REDIS_URL`.' }),
  ),
  MAILBOX_DATA_DIR: Type.String({
    default: 'var',
    description:
      "Data directory: the embedded Redis (`<dir>/redis/`: socket and append-only file), the outbox (`<dir>/outbox/`, `OUTBOUND=outbox`), in embedded mode `master.key`, and for `serve --dev` `dev-space.json` (the dev space's id); the blob store (`<dir>/blobs/`) unless `BLOB_STORE` names a bucket.",
  }),
  BLOB_STORE: Type.Optional(
    Type.String({
      shown: 'unset (files)',
      description:
        'Where attachments, raw sources of received mail and long bodies live ([docs/operations.md](docs/operations.md#blob-store)): unset, files under `<MAILBOX_DATA_DIR>/blobs/` (one machine or a shared volume); `s3://bucket/prefix`, any S3-compatible store, with `AWS_ENDPOINT_URL_S3` (or `AWS_ENDPOINT_URL`; bucket in the path then), `AWS_REGION`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`. Checked at start.',
    }),
  ),
  ATTACHMENT_MAX_BYTES: Type.Integer({
    default: 10_485_760,
    minimum: 0,
    shown: '`10485760` (10 MB)',
    description: 'The decoded size of all the files of one outgoing message together.',
  }),
  SEARCH_TAIL_POSTINGS: Type.Integer({
    default: 4096,
    minimum: 0,
    description:
      'The newest document numbers search_threads reads of each word\'s posting at first; a query that needs older ones reads them whole (docs/architecture.md, "Search").',
  }),
  SEARCH_SEGMENT_CACHE_BYTES: Type.Integer({
    default: 268435456,
    minimum: 0,
    shown: '`268435456` (256 MB)',
    description:
      'The bytes of search segments (archived mail\'s index, read from the blob store) a process keeps open in memory, the least recently read closed first (docs/architecture.md, "Search").',
  }),
  LOG_LEVEL: Type.Union(
    [Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn'), Type.Literal('error'), Type.Literal('silent')],
    {
      default: 'info',
      description:
        '`debug`, `info`, `warn`, `error`, `silent`; JSON lines on stderr; `debug` logs every request. Any other value stops the start with an error naming the variable.',
    },
  ),
  HUMAN_SESSION_HOURS: Type.Integer({
    default: 12,
    minimum: 1,
    description:
      "How long the space's human stays signed in on the service's pages (`/signin`: e-mail and 6-digit code; the OAuth consent page and the workspace use it).",
  }),
  MAX_BODY_BYTES: Type.Integer({
    default: 2_097_152,
    minimum: 1,
    description: 'Largest request body; beyond, `413 payload_too_large`.',
  }),
  KEYS_CREATED_PER_24H: Type.Integer({
    default: 50,
    minimum: 0,
    description: '`create_key` calls a space may make in any 24 h (`space_rate_limited`). Use at least 1.',
  }),
  CONTACTS_PER_SPACE: Type.Integer({
    default: 100_000,
    minimum: 0,
    description:
      'Contacts a space may hold; add_contacts refuses a call that would pass it (`contact_limit`, nothing written).',
  }),
  COMMON_DOMAIN: Type.String({
    default: 'agents.mailbox.localhost',
    keepsEmpty: true,
    description:
      'The shared domain: inboxes on it are `shared` (reply only), usernames 3 to 32 characters, never reassigned. Set to an empty value (`COMMON_DOMAIN=`) to disable it: spaces then need a verified domain of their own (`no_sending_domain`). Reported by `get_settings`.',
  }),
  SEND_WINDOW: Type.String({
    default: 'mon-fri 09:00-18:00 Europe/Paris holidays:fr',
    description:
      'Sending window: `always`, or `<days> <HH:MM>-<HH:MM> <zone> [holidays:fr]`, days `mon-fri` or `mon,wed,fri`. `get_settings` tells it in words. Checked at start: a malformed value stops it with an error naming the variable.',
  }),
  RATE_LIMIT_BURST: Type.Integer({
    default: 600,
    minimum: 1,
    description: 'Requests a key may make at once (token bucket in Redis, shared by every front end).',
  }),
  RATE_LIMIT_PER_SECOND: Type.Integer({
    default: 100,
    minimum: 1,
    description:
      'Refill of that budget; past it, `rate_limited` (429, `Retry-After`). A JSON-RPC batch on `/mcp` takes one request per message.',
  }),
  RATE_LIMIT_REGISTER: Type.String({
    default: '30/h,3600/h',
    pattern: '^\\s*[1-9]\\d*/[smhd]\\s*,\\s*[1-9]\\d*/[smhd]\\s*$',
    expected: 'deux budgets comme 60/h,3600/h (par adresse de client, puis en tout ; unités s, m, h, d)',
    description:
      'OAuth registrations per client address, then in the whole service (`<count>/<s|m|h|d>` each: a burst, refilled over the period); past either, 429 ([operations](docs/operations.md#anonymous-endpoints)).',
  }),
  RATE_LIMIT_AUTHORIZE: Type.String({
    default: '120/h,7200/h',
    pattern: '^\\s*[1-9]\\d*/[smhd]\\s*,\\s*[1-9]\\d*/[smhd]\\s*$',
    expected: 'deux budgets comme 60/h,3600/h (par adresse de client, puis en tout ; unités s, m, h, d)',
    description: 'The same for the consent page (`/oauth/authorize`).',
  }),
  RATE_LIMIT_TOKEN: Type.String({
    default: '600/h,36000/h',
    pattern: '^\\s*[1-9]\\d*/[smhd]\\s*,\\s*[1-9]\\d*/[smhd]\\s*$',
    expected: 'deux budgets comme 60/h,3600/h (par adresse de client, puis en tout ; unités s, m, h, d)',
    description:
      "The same for `/oauth/token` and `/oauth/revoke`. Raise the first figure if many of your users connect through one assistant's servers.",
  }),
  RATE_LIMIT_SIGNIN: Type.String({
    default: '30/h,3600/h',
    pattern: '^\\s*[1-9]\\d*/[smhd]\\s*,\\s*[1-9]\\d*/[smhd]\\s*$',
    expected: 'deux budgets comme 60/h,3600/h (par adresse de client, puis en tout ; unités s, m, h, d)',
    description: "The same for the sign-in's two steps (`POST /signin`, `POST /signin/code`).",
  }),
  OAUTH_PENDING_CLIENTS: Type.Integer({
    default: 10_000,
    minimum: 1,
    description: 'Registered OAuth clients kept before their first token; past it the oldest goes.',
  }),
  CLIENT_ADDRESS_HEADER: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9-]{1,64}$',
      expected: "un nom d'en-tête (lettres, chiffres, -)",
      description:
        "Behind a reverse proxy, the header it writes the client's address in (`x-forwarded-for`, `x-real-ip`): its last entry is the address the budgets count. Unset, the connection's address; set it only if every request comes through that proxy.",
    }),
  ),
  ANONYMOUS_INDEX: Type.String({
    default: 'anon',
    pattern: '^[a-z0-9-]{1,32}$',
    expected: '1 à 32 caractères parmi a-z, 0-9 et -',
    description:
      'The name of the anonymous budgets and pending registrations in Redis: processes sharing it share them.',
  }),
  WS_AUTH_TIMEOUT_MS: Type.Integer({
    default: 5000,
    minimum: 1,
    description:
      'How long a realtime socket (`GET /v1/events/ws`) opened without a bearer key may wait for its `auth` message; then close 4401.',
  }),
  WS_MAX_BUFFERED_BYTES: Type.Integer({
    default: 1_048_576,
    minimum: 1,
    description:
      'Unsent bytes a realtime socket may hold (or bytes of its own messages waiting to be handled) before it is closed with 4000, "resume from your cursor" ([operations](docs/operations.md#realtime-sockets)).',
  }),
  WS_MAX_SOCKETS_PER_KEY: Type.Integer({
    default: 10,
    minimum: 1,
    description:
      'Realtime sockets one key (or connection) may have open at once, over every front end; beyond: `socket_limit`, close 4029 ([operations](docs/operations.md#limits-of-realtime-sockets-and-contacts)).',
  }),
  WS_MAX_SOCKETS_PER_SPACE: Type.Integer({ default: 50, minimum: 1, description: 'The same for a whole space.' }),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      secret: true,
      shown: '(none)',
      description:
        'Bearer token `GET /metrics` asks for; unset, the metrics are open on `HOST:PORT` ([operations](docs/operations.md#metrics)).',
    }),
  ),
  STRIPE_SECRET_KEY: Type.Optional(
    Type.String({
      secret: true,
      description:
        'Enables subscribe (Stripe Checkout) for plans with a `price_id`, and subscription cancellation at closure.',
    }),
  ),
  STRIPE_API_URL: Type.String({
    default: 'https://api.stripe.com/v1',
    description: "Stripe's API root (stripe-mock, tests).",
  }),
  STRIPE_WEBHOOK_SECRET: Type.Optional(
    Type.String({
      secret: true,
      description:
        "The signing secret (`whsec_…`) of the Stripe webhook endpoint `POST <BASE_URL>/billing/stripe` (events `customer.subscription.created`, `.updated`, `.deleted`): paid, late and ended subscriptions set the space's plan. Unset, the endpoint answers `503 billing_unavailable` and plans are set with `admin set-plan`.",
    }),
  ),
  PLANS: Type.Optional(
    Type.String({
      shown: '`starter` 3, `pro` 25, `scale` 250 inboxes, 20/day each',
      description:
        'JSON `{"<plan>":{"inbox_cap":3,"daily_max":20,"price_id":null}}`; `admin create-space --plan` accepts these names and `none`.',
    }),
  ),
  MAILBOX_MASTER_KEY: Type.Optional(
    Type.String({
      secret: true,
      description:
        'Base64 of 32 bytes; its length is checked at start. Seals secrets at rest (AES-256-GCM): DKIM private keys and webhook secrets. Also signs unsubscribe links (a key derived from it). Unset in embedded mode (no `REDIS_URL`): `mailbox serve` creates `<MAILBOX_DATA_DIR>/master.key` (32 random bytes, base64, mode 0600) on first start and uses it. `MAILBOX_MASTER_KEY_FILE` set instead: the key kept in that file, created there the same way on first start (`docker-compose.yml` keeps it in its data volume). Unset with your own Redis and no file: `add_domain`, `set_webhook`, `send_email`, `reply_to_thread` and `approve_message` answer `encryption_unavailable` (503): no message can leave without its signed unsubscribe link. Keep it: without it stored DKIM keys cannot be read.',
    }),
  ),
  MAILBOX_MASTER_KEY_FILE: Type.Optional(
    Type.String({
      description:
        'A file holding the master key instead of `MAILBOX_MASTER_KEY`: created there on first start when absent (32 random bytes, base64, mode 0600); `docker-compose.yml` keeps it in its data volume.',
    }),
  ),
  SMTP_PORT: Type.Integer({
    default: 2525,
    minimum: 0,
    maximum: 65_535,
    description: 'Port of the inbound SMTP server (25 in production).',
  }),
  SMTP_HOST: Type.Optional(
    Type.String({ shown: '`HOST`', description: 'Address the SMTP server listens on (`0.0.0.0` in production).' }),
  ),
  SUBMISSION_PORT: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 65_535,
      shown: 'unset (off)',
      description:
        'Port of SMTP submission: AUTH with an API key, each message a `send_email` (587 in production; [operations](docs/operations.md#smtp-submission)). Listens on `SMTP_HOST`; STARTTLS with the `SMTP_TLS_` files, required off loopback.',
    }),
  ),
  SMTP_MAX_BYTES: Type.Integer({
    default: 26_214_400,
    minimum: 0,
    description: 'Largest message accepted (SIZE extension; 552 beyond).',
  }),
  SMTP_MAX_HEADERS: Type.Integer({
    default: 1000,
    minimum: 0,
    description: "Header fields in one header section (the message's or a part's); 554 beyond.",
  }),
  SMTP_MAX_HEADER_BYTES: Type.Integer({
    default: 65_536,
    minimum: 0,
    description: 'One header field, folded lines included; 552 beyond.',
  }),
  SMTP_MAX_HEADER_SECTION_BYTES: Type.Integer({
    default: 262_144,
    minimum: 0,
    description: 'One header section; 552 beyond.',
  }),
  SMTP_MAX_ADDRESSES_PER_HEADER: Type.Integer({
    default: 1000,
    minimum: 0,
    description: 'Addresses in one address field (From, To, Cc...); 554 beyond.',
  }),
  SMTP_MAX_MIME_DEPTH: Type.Integer({
    default: 20,
    minimum: 0,
    description: 'Nested multiparts and embedded messages; 554 beyond.',
  }),
  SMTP_MAX_MIME_PARTS: Type.Integer({
    default: 1000,
    minimum: 0,
    description: 'MIME parts in one message; 554 beyond.',
  }),
  CONTENT_WORKERS: Type.Integer({
    default: 2,
    minimum: 1,
    description:
      "Worker threads reading received messages' MIME and HTML's text, per process ([limits on untrusted content](docs/operations.md#limits-on-untrusted-content)).",
  }),
  CONTENT_TIME_LIMIT_MS: Type.Integer({
    default: 10_000,
    minimum: 1,
    description:
      'One MIME or HTML read; past it the thread is ended (a MIME: 554; an HTML\'s text: `text_unavailable: "time_limit"`).',
  }),
  CONTENT_HEAP_MB: Type.Integer({
    default: 256,
    minimum: 1,
    description: 'JS heap of a content worker thread; past it the thread ends (`memory_limit`).',
  }),
  HTML_MAX_DEPTH: Type.Integer({
    default: 512,
    minimum: 1,
    description: 'Elements nested in an HTML document whose text is read; deeper: no text (`depth_limit`).',
  }),
  PDF_TIME_LIMIT_MS: Type.Integer({
    default: 20_000,
    minimum: 1,
    description: "One PDF's text; past it the PDF process is killed (`time_limit`).",
  }),
  PDF_HEAP_MB: Type.Integer({ default: 128, minimum: 1, description: 'JS heap of the PDF process.' }),
  PDF_MEMORY_MB: Type.Integer({
    default: 256,
    minimum: 1,
    description:
      "Address space the PDF process may map beyond its size once started (RLIMIT_AS, set with util-linux's `prlimit`): its heap's growth and the streams it inflates (`memory_limit` beyond).",
  }),
  SMTP_SESSION_MAX_MS: Type.Integer({
    default: 600_000,
    minimum: 1,
    description: "A session's whole life, however busy (421, then closed).",
  }),
  SMTP_DATA_MIN_BYTES_PER_SECOND: Type.Integer({
    default: 1024,
    minimum: 0,
    description: 'Least average DATA rate of a session, judged once `SMTP_DATA_GRACE_MS` passed (421, then closed).',
  }),
  SMTP_DATA_GRACE_MS: Type.Integer({
    default: 30_000,
    minimum: 0,
    description: 'How long a session may send DATA before its rate is judged.',
  }),
  SMTP_MAX_CONNECTIONS: Type.Integer({
    default: 1000,
    minimum: 1,
    description: 'Open SMTP sessions per process (421 beyond).',
  }),
  SMTP_MAX_CONNECTIONS_PER_ADDRESS: Type.Integer({
    default: 20,
    minimum: 1,
    description: 'Open SMTP sessions from one client address (421 beyond).',
  }),
  SMTP_UNKNOWN_RECIPIENT_DELAY_MS: Type.Integer({
    default: 1000,
    minimum: 0,
    description: 'Each unknown recipient of a session is answered this much later than the one before.',
  }),
  SMTP_MAX_UNKNOWN_RECIPIENTS: Type.Integer({
    default: 10,
    minimum: 1,
    description: 'The unknown recipient that closes the session (421).',
  }),
  SMTP_TLS_KEY_FILE: Type.Optional(
    Type.String({
      description:
        'PEM key of STARTTLS, with `SMTP_TLS_CERT_FILE`: STARTTLS is offered only when both are set (inbound and submission). Setting only one of the two stops the start.',
    }),
  ),
  SMTP_TLS_CERT_FILE: Type.Optional(
    Type.String({ description: 'PEM certificate of STARTTLS, with `SMTP_TLS_KEY_FILE`.' }),
  ),
  SERVICE_DKIM_KEY_FILE: Type.Optional(
    Type.String({
      description:
        "PEM RSA private key (checked at start) signing mail from common-domain inboxes (`d=<COMMON_DOMAIN>`) and the service's own mail (`d=<first SERVICE_DOMAINS>`); `mailbox admin service-dkim-records` prints the TXT records to publish. Unset: that mail leaves unsigned.",
    }),
  ),
  SERVICE_DKIM_SELECTOR: Type.String({
    default: 'mailbox',
    pattern: '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$',
    expected: 'un seul label DNS (lettres, chiffres, -)',
    description: 'The DKIM selector of that key: one DNS label.',
  }),
  SERVICE_DOMAINS: Type.Optional(
    Type.String({
      shown: '`mailbox.localhost,<COMMON_DOMAIN>`',
      description: "The service's own domains: `add_domain` refuses them and their subdomains (`domain_not_allowed`).",
    }),
  ),
  MX_HOST: Type.Optional(
    Type.String({
      shown: '`mx.<COMMON_DOMAIN>` (`mx.<first SERVICE_DOMAINS>` without common domain)',
      description: 'The MX record spaces publish for their domains; `verify_domain` looks for it.',
    }),
  ),
  SPF_HOST: Type.Optional(
    Type.String({
      shown: '`_spf.<first SERVICE_DOMAINS>`',
      description: "Spaces' SPF records must contain `include:<SPF_HOST>`.",
    }),
  ),
  DNS_SERVERS: Type.Optional(
    Type.String({
      shown: "unset (the system's resolvers)",
      description:
        'Resolvers for domain checks, direct delivery and webhook hosts, `host:port` comma-separated (`127.0.0.1:53,[::1]:5353`). A failed query answers `dns_unavailable` and changes nothing. `serve --dev` asks its own loopback DNS instead, which answers the dev domain and passes every other question on to these.',
    }),
  ),
  OUTBOUND: Type.String({
    default: 'outbox',
    secret: true,
    description:
      "How mail leaves: `outbox` (one `.eml` file per message under `<MAILBOX_DATA_DIR>/outbox/`, nothing sent), `smtp://user:pass@host:port` (a relay; STARTTLS when offered, certificate checked; `smtps://` for TLS from the start; nodemailer URL options such as `?tls.rejectUnauthorized=false`), or `direct` (to each recipient domain's MX). Checked at start; the error never shows the value.",
  }),
  DIRECT_PORT: Type.Integer({
    default: 25,
    minimum: 1,
    maximum: 65_535,
    description: "Port direct delivery connects to on the recipient's MX (tests use a loopback port).",
  }),
  HELO_NAME: Type.Optional(
    Type.String({
      shown: '`MX_HOST`',
      description:
        'Name given in EHLO by direct delivery and the relay; use a name whose A record and reverse DNS match the sending IP.',
    }),
  ),
  SPACING_SECONDS: Type.Integer({
    default: 600,
    minimum: 0,
    description:
      'Least time between two departures of one inbox, plus a 0-50 % jitter drawn at reservation (docs/tools.md, send_email).',
  }),
  CAMPAIGN_QUEUE_DAYS: Type.Integer({
    default: 1,
    minimum: 0,
    description:
      'Days of each inbox\'s warm-up quota a campaign may keep waiting in its queue (docs/tools.md, "Campaigns").',
  }),
  CAMPAIGN_FEED_SECONDS: Type.Integer({
    default: 60,
    minimum: 1,
    description: "How often the worker role's campaign feeder visits the running campaigns.",
  }),
  ARCHIVE_AFTER_DAYS: Type.Integer({
    default: 30,
    minimum: 1,
    description:
      'Days without activity after which a thread with no draft, queued or sending message moves from Redis to the blob store, readable as before (docs/architecture.md, "History").',
  }),
  ARCHIVE_THREADS_PER_MINUTE: Type.Integer({
    default: 2_000,
    minimum: 0,
    description: 'Threads the worker role moves into history a minute at most, all spaces together (`0`: none).',
  }),
  HISTORY_CACHE_MB: Type.Integer({
    default: 64,
    minimum: 0,
    description:
      'Memory each process keeps for the history documents it read lately (get_thread on a thread in history reads one).',
  }),
  DELIVERY_LEASE_MS: Type.Integer({
    default: 300_000,
    minimum: 1000,
    shown: '`300000` (5 min)',
    description:
      "How long a delivery worker holds a message it took: a dead worker's message is taken again (and sent again if the peer had already accepted it) once this has passed. Keep it longer than a delivery can last (some 3.5 min for direct delivery), or a slow delivery is sent twice; the kill drills (`bench/drills.sh`) shorten it. At least `1000`.",
  }),
  SHARED_READ_MS: Type.Integer({
    default: 300,
    minimum: 0,
    description:
      'How long a send waits for what lives outside its space\'s slot (the recipient\'s address claim and dead-address shard, its wake-up and due mark) before deciding without it: a Cluster node failing over then delays only its own spaces (docs/operations.md, "Redis Cluster failover").',
  }),
  WEBHOOKS_ENABLED: Type.Boolean({
    default: true,
    description:
      '`false`: set_webhook answers `webhooks_unavailable` (503) and no webhook worker runs; event_feed still works.',
  }),
  WEBHOOK_ALLOW_LOOPBACK: Type.Boolean({
    default: false,
    description:
      '`true` lets a webhook point to a loopback address (127/8, ::1, `localhost`), still in https: for tests only (`serve --dev` allows these in plain `http://` too; nothing else does). Every other internal address stays refused ([docs/events.md](docs/events.md#where-a-webhook-may-point-ssrf-guard)).',
  }),
  WEBHOOKS_DECLARED_PER_24H: Type.Integer({
    default: 20,
    minimum: 0,
    description:
      'set_webhook declarations a space may make in any 24 h (`space_rate_limited`); reported by `get_settings`.',
  }),
  WEBHOOK_RETRY_SCHEDULE: Type.String({
    default: '5s,5m,30m,2h,5h,10h,10h',
    pattern: '^\\s*\\d+(ms|s|m|h)\\s*(,\\s*\\d+(ms|s|m|h)\\s*)*$',
    expected: 'des durées comme 5s,5m,2h (unités ms, s, m, h)',
    description:
      'Waits before each retry of a failed webhook delivery (units `ms`, `s`, `m`, `h`); after the last, the event is given up and journalled. Tests shorten it.',
  }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 1,
    description: 'A webhook delivery succeeds on a 2xx answer within this time.',
  }),
  WEBHOOK_LEASE_MS: Type.Integer({
    default: 60_000,
    minimum: 1,
    description:
      "How long a worker holds a space's deliveries: a dead worker's are taken over after it. At least three times `WEBHOOK_TIMEOUT_MS`.",
  }),
  WEBHOOK_CA_FILE: Type.Optional(
    Type.String({
      description:
        "A PEM file of extra certificate authorities webhook receivers may present, besides the system's (tests trust their loopback receiver this way; TLS is always verified).",
    }),
  ),
  WORKSPACE_WAIT_MS: Type.Integer({
    default: 18_000,
    minimum: 0,
    description:
      "How long workspace_events holds a view's call when nothing is new (the spec's 18 s; tests shorten it).",
  }),
  WORKSPACE_MAX_INSTANCES: Type.Integer({
    default: 10_000,
    minimum: 1,
    description:
      'Workspace instances open at once in the whole service; beyond, open_workspace answers `workspace_capacity` (503).',
  }),
  WORKSPACE_INDEX: Type.String({
    default: 'ws',
    pattern: '^[a-z0-9-]{1,32}$',
    expected: '1 à 32 caractères parmi a-z, 0-9 et -',
    description:
      "Name of the workspace's service-wide counters in Redis (open instances, the 64 waits): 1 to 32 of `a-z`, `0-9`, `-`. Processes sharing a name share the limits (the test suite gives each service its own).",
  }),
  WEBHOOK_INDEX: Type.String({
    default: 'wh',
    pattern: '^[a-z0-9-]{1,32}$',
    expected: '1 à 32 caractères parmi a-z, 0-9 et -',
    description:
      "Name of the webhook workers' shared index in Redis: 1 to 32 of `a-z`, `0-9`, `-`. Workers sharing a name deliver each other's spaces: keep the default, unless several deployments share one Redis (the test suite gives each service its own).",
  }),
});

export type Settings = Static<typeof SETTINGS>;

type Env = Record<string, string | undefined>;

interface SettingOptions {
  type?: string;
  anyOf?: { const: string }[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  expected?: string;
  secret?: boolean;
  keepsEmpty?: boolean;
}

const options = (schema: TSchema): SettingOptions => schema;

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** The environment's text as the value the schema checks: a number or a flag where one is asked for. */
function fromText(schema: TSchema, text: string): unknown {
  switch (options(schema).type) {
    case 'integer':
      return /^-?\d+$/.test(text.trim()) ? Number(text) : text;
    case 'boolean': {
      const word = text.trim().toLowerCase();
      return TRUE_WORDS.includes(word) ? true : FALSE_WORDS.includes(word) ? false : text;
    }
    default:
      return text;
  }
}

/** What the variable must be, in French: the start-up error's words. */
function expectation(schema: TSchema): string {
  const { type, anyOf, minimum, maximum, expected } = options(schema);
  if (expected) return expected;
  if (anyOf) return `l'une des valeurs ${anyOf.map((choice) => choice.const).join(', ')}`;
  if (type === 'boolean') return `${TRUE_WORDS.join(', ')} ou ${FALSE_WORDS.join(', ')}`;
  if (type === 'integer') {
    if (maximum !== undefined) return `un entier de ${minimum ?? 0} à ${maximum}`;
    return minimum ? `un entier d'au moins ${minimum}` : 'un entier positif ou nul';
  }
  return 'un texte';
}

/** The French sentence that stops the start; a secret's value is never repeated. */
export const settingRefused = (name: string, expected: string, text: string, secret = false): string =>
  `${name} doit être ${expected}${secret ? '' : ` ; reçu « ${text} »`}.`;

/** Reads every variable of SETTINGS from `env`: the default where unset, else the value checked against its schema. */
export function readSettings(env: Env): Settings {
  const read: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(SETTINGS.properties) as [string, TSchema][]) {
    const text = env[name];
    const { keepsEmpty, secret } = options(schema);
    if (text === undefined || (text === '' && !keepsEmpty)) {
      if (options(schema).default !== undefined) read[name] = options(schema).default;
      continue;
    }
    const value = fromText(schema, text);
    if (!Value.Check(schema, value)) throw new Error(settingRefused(name, expectation(schema), text, secret));
    read[name] = value;
  }
  return read as Settings;
}
