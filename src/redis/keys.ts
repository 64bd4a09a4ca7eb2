/**
 * The whole key schema, in one place. Every key of a space carries the hash tag `{spc_...}`, so any
 * script of a space is atomic and Redis Cluster-safe. Lua never builds a key name: it gets them here,
 * through KEYS.
 */
import { hash } from 'node:crypto';
import calculateSlot from 'cluster-key-slot';
import { boundedMemo } from '../memo.js';

export const KEY_PREFIX = 'mbx';

/** A space's hash tag (bench/search.mjs and bench/cluster-drill.mjs find its slot with it). @public */
export const spaceTag = (spaceId: string): string => `${KEY_PREFIX}:{${spaceId}}`;

/** The shard of a value among `shards`, stable across processes: for indexes kept under shard tags. */
// crypto.hash in one call: 0.35 µs less than a Hash object per value, on every send's dead-address read.
export const shardOf = (value: string, shards: number): number =>
  hash('sha1', value, 'buffer').readUInt16BE(0) % shards;

function keysOf(spaceId: string) {
  const tag = spaceTag(spaceId);
  return {
    /**
     * hash: the space's fields (name, human, verified, plan, managed, approval, created_at; billing_status
     * and current_period_end once a plan is set; billing_event_at and billing_event_id, the last
     * Stripe event applied; closes_at (ms) while a confirmed closure waits).
     */
    space: `${tag}:space`,
    /** hash: key id -> key JSON, for the active accesses. */
    keys: `${tag}:keys`,
    /** hash: normalised name -> key id, for the active keys of kind `key` (its length is the active count). */
    keyNames: `${tag}:keys:names`,
    /** hash: key id -> key JSON, revoked accesses (kept for the audit trail). */
    revokedKeys: `${tag}:keys:revoked`,
    /** hash: key id -> last use (ms). */
    keyUse: `${tag}:keys:used`,
    /** hash: sha256(secret) -> key id. Deleting a field revokes at once on every front end. */
    auth: `${tag}:auth`,
    /** hash: key id -> messages created on that Paris day (the key's daily cap). */
    keySentOn: (day: string) => `${tag}:keys:sent:${day}`,
    /** sorted set: key id scored by creation time, for the 24 h creation limit. */
    keyCreations: `${tag}:keys:created`,
    /** sorted set (score 0, lex): live inbox ids. */
    inboxes: `${tag}:inboxes`,
    /** hash: an inbox's fields (kept after deletion, status `deleted`: its journal stays readable). */
    inbox: (inboxId: string) => `${tag}:inbox:${inboxId}`,
    /** sorted set: inbox id scored by creation time (ms), 7 days kept: the creation limit counts deleted ones too. */
    inboxCreations: `${tag}:inboxes:created`,
    /** hash: registered domain name -> domain id (its length is the space's domain count). */
    domains: `${tag}:domains`,
    /**
     * hash: a registered domain's fields, by name (what create_inbox and remove_domain are given).
     * `status` here is what the send path reads to refuse `domain_suspended`.
     */
    domain: (name: string) => `${tag}:domain:${name}`,
    /** hash: a message's fields (actors/message.ts); the body lives here too. */
    message: (messageId: string) => `${tag}:msg:${messageId}`,
    /**
     * hash: a thread's fields, its loop guard window included (`loop_window`), and `docs`: its first 8
     * messages' search document numbers (3 bytes each, as a word's posting; a thread is shown once, where
     * its newest match is; past 8 they move to searchThread), bytes that readers of the fields leave out
     * (lua/includes/indexMessage.lua). Absent while the thread is in history: its row is in historyNames.
     */
    thread: (threadId: string) => `${tag}:thr:${threadId}`,
    /** sorted set (score 0, lex): a thread's message ids, in time order. */
    threadMessages: (threadId: string) => `${tag}:thr:${threadId}:msgs`,
    /** sorted set: thread id scored by last activity (ms), for list_threads. */
    threads: `${tag}:threads`,
    /** sorted set (score 0, lex): draft message ids awaiting approval. */
    drafts: `${tag}:drafts`,
    /** sorted set (score 0, lex): an inbox's draft message ids. */
    inboxDrafts: (inboxId: string) => `${tag}:inbox:${inboxId}:drafts`,
    /** sorted set: queued message id scored by its planned departure (ms), for the whole space (the sweeper reads it). */
    queue: `${tag}:queue`,
    /** sorted set: an inbox's queued message ids scored by planned departure (ms). */
    inboxQueue: (inboxId: string) => `${tag}:inbox:${inboxId}:queue`,
    /**
     * hash: an inbox's reserved departures per Paris day (`YYYY-MM-DD` -> count) and `last` (ms of the latest
     * slot); also its daily figures for the circuit breaker: `sent:<day>`, `bounced:<day>`, `complained:<day>`.
     */
    inboxSlots: (inboxId: string) => `${tag}:inbox:${inboxId}:slots`,
    /**
     * hash: `<inbox id> <Message-ID header>` -> `<message id> <thread id>` of a received message: threading
     * of later mail that cites it, and the duplicate check of a resent one. Our own outbound Message-IDs
     * need no entry: they are `<msg_...@domain>`, resolved from their shape (actors/inbound.ts).
     */
    messageIds: `${tag}:msgids`,
    /**
     * hash: the space's history (actors/history.ts, docs/architecture.md "History"): `to`, the activity
     * (ms) up to which every thread was looked at; `buckets`, how many historyNames buckets hold its
     * names (a power of two, 1 when absent), `split` while they grow (actors/history-names.ts); `entries`,
     * how many names they hold.
     */
    history: `${tag}:hist`,
    /** set: threads looked at but left in Redis (a message of theirs was a draft, queued or sending): looked at again each visit. */
    historyWaiting: `${tag}:hist:wait`,
    /**
     * hash: a bucket of the names of the messages whose thread is in history, 48 bits of a name's SHA-256
     * (6 bytes) -> the thread's slot in historyThreads: a message id, and a received message's messageIds
     * field (actors/history-names.ts). A bucket stays a listpack: some 14 bytes a name. It holds the rows
     * of threads in history too: 3 bytes of a SHA-256 and the thread's id body -> its fields, packed
     * (rowPlace, stored-records.ts HISTORY_ROW_FIELDS); such a thread has no `thread` hash.
     */
    historyNames: (bucket: number) => `${tag}:hist:${bucket}`,
    /** string: the id bodies of the threads historyNames point to, 20 characters a slot, appended at each move. */
    historyThreads: `${tag}:hist:threads`,
    /**
     * set: the SHA-256 of every blob a record of the space points to (src/blobs/): a blob of the space
     * outside it is a crash leftover the sweep removes (actors/attachments.ts).
     */
    blobs: `${tag}:blobs`,
    /** hash: attachment id (`att_...`) of a received message -> its message id: forwarding by `{attachment_id}`. */
    receivedAttachments: `${tag}:atts`,
    /** hash: correspondent address -> thread id of the inbox's latest thread opened by mail from it (subject fallback). */
    inboxContacts: (inboxId: string) => `${tag}:inbox:${inboxId}:contacts`,
    /**
     * hash: recipient address -> `<thread id> <ms>` of the inbox's last first message to it (30-day rule);
     * `test <address>` (testRecipientField) -> thread id of its last test send to it, which the rule does
     * not count but the subject fallback of threading reads.
     */
    inboxRecipients: (inboxId: string) => `${tag}:inbox:${inboxId}:rcpt`,
    /** sorted set: messages being delivered, scored by the end of their lease (ms); an expired lease is retried. */
    sending: `${tag}:sending`,
    /** string `<message id> <content hash>`, 7 days: an idempotency key of the space (hashed). */
    idempotency: (keyHash: string) => `${tag}:idem:${keyHash}`,
    /** hash: suppressed value (address or `@domain`) -> entry JSON. */
    suppressions: `${tag}:suppressions`,
    /** sorted set (score 0, lex): "<entry id> <value>", newest last, for list_suppressions. */
    suppressionIndex: `${tag}:suppressions:idx`,
    /** hash: filter id (`flt_...`) -> filter JSON (add_filter; src/mail/filters.ts judges sends and receptions with them). */
    filters: `${tag}:filters`,
    /**
     * stream: the space's events, one field `p`, the packed event (actors/events.ts prepareEvent;
     * event_feed, the realtime socket and webhooks read it). Entry ids follow the injected clock
     * (lua/includes/appendEvent.lua); consumer group `webhooks` once declared.
     */
    events: `${tag}:events`,
    /** stream: the events rewritten in today's layout by `mailbox admin migrate`, renamed over `events` once whole. */
    eventsRewrite: `${tag}:events:rewrite`,
    /**
     * hash: the declared webhook: url, secret (sealed, src/crypto.ts), declared_at (ms), and the
     * delivery of the oldest undelivered event: attempts, next_at (ms), last_error.
     */
    webhook: `${tag}:webhook`,
    /** sorted set: declarations scored by time (ms), for the 24 h declaration limit. */
    webhookDeclarations: `${tag}:webhook:declared`,
    /**
     * hash: the pending 6-digit code of a purpose (`verify` for attach_human, `close` for close_space):
     * salt, hash (sha256 of salt and code), sent_at, expires_at (ms), attempts, payload (the e-mail to
     * attach for `verify`). Never the code itself (actors/codes.ts). Sign-in codes live with the address
     * (globalKeys.humanAttempt).
     */
    code: (purpose: 'verify' | 'close') => `${tag}:code:${purpose}`,
    /**
     * hash: a human's signed-in session, by sha256 of its secret (actors/human-session.ts): email,
     * created_at, expires_at (ms); the key expires with the session.
     */
    session: (sessionHash: string) => `${tag}:session:${sessionHash}`,
    /**
     * string, expiring: an OAuth authorization code's grant, by sha256 of the code (actors/connection.ts):
     * JSON {key_id, client_id, redirect_uri, code_challenge, scope, resource, expires_at}. Spent once.
     */
    oauthCode: (codeHash: string) => `${tag}:oauth:code:${codeHash}`,
    /** string, expiring after 1 h: `<connection key id> <audience> <expiry ms> <scope>` of an access token (its permissions, comma-separated), by sha256 of the token. */
    oauthAccess: (tokenHash: string) => `${tag}:oauth:at:${tokenHash}`,
    /**
     * hash, expiring after 30 days: a refresh token, by sha256 of it: key_id, client_id, scope, resource,
     * expires_at (ms), used (`1` once rotated: presenting it again revokes the connection).
     */
    oauthRefresh: (tokenHash: string) => `${tag}:oauth:rt:${tokenHash}`,
    /** sorted set: salts of the codes the tools sent (verify, close), scored by send time (ms), 24 h kept: spacing and the 5-code limit. */
    codeSends: `${tag}:codes:sent`,
    /**
     * string "<tokens> <at ms>": a request budget (token bucket); expires when full again. A key's, by
     * sha256 of its secret; a connection's, spent by all its access tokens, by its key id (`key_…`).
     */
    rateBucket: (owner: string) => `${tag}:budget:${owner}`,
    /**
     * hash: a workspace instance (actors/workspace.ts): key_id and access (the fingerprint of its rights
     * when it opened), sequence, route (JSON), route_sequence, acked, expires_at (ms). Gone once closed.
     */
    workspace: (instanceId: string) => `${tag}:wsi:${instanceId}`,
    /** sorted set: wait token -> end of the wait (ms), the view's calls held on this instance. */
    workspaceWaits: (instanceId: string) => `${tag}:wsi:${instanceId}:waits`,
    /** stream: one entry per navigation; waits block on it (XREAD) on their own connection, on any front end. */
    workspaceWake: (instanceId: string) => `${tag}:wsi:${instanceId}:wake`,
    /** sorted set: open instance id -> expiry (ms), for the per-space limit. */
    workspaces: `${tag}:wsis`,
    /**
     * sorted set: the space's open realtime sockets, socket id -> end of its place (ms), pushed on while
     * the socket lives (actors/sockets.ts): the per-space limit, shared by every front end.
     */
    sockets: `${tag}:sockets`,
    /** sorted set: the same, for one key's (or connection's) sockets: the per-key limit. */
    keySockets: (keyId: string) => `${tag}:sockets:${keyId}`,
    /**
     * The search index (actors/search.ts, docs/architecture.md "Search"), written by the scripts that store
     * messages. string: one 40-character record per indexed message, `<message id body><thread id body>`;
     * a message's document number is its record's rank, plus the documents cut from the front once moved
     * to search segments (a header record `#<last cut>`, lua/includes/docsCut.lua); a moved one's is 40 `-`.
     */
    searchDocs: `${tag}:s:docs`,
    /** sorted set (score 0, lex): every indexed word, for the last word of a query, a prefix. */
    searchWords: `${tag}:s:words`,
    /** string: the document numbers (3 bytes each, big-endian, ascending) of the messages holding a word. */
    searchWord: (word: string) => `${tag}:s:w:${word}`,
    /**
     * list: the index's pending entries, in document order: a number (3 bytes), then "<inbox id> <word> ...";
     * lua/search/postPending files them in searchInbox and searchWord, a batch at a time and before any search.
     */
    searchPending: `${tag}:s:pending`,
    /** hash: word -> its only document number (3 bytes), for a word of one document (no searchWord key yet). */
    searchOnce: `${tag}:s:once`,
    /** string: the same for the messages of an inbox (a restricted key searches only its inboxes). */
    searchInbox: (inboxId: string) => `${tag}:s:i:${inboxId}`,
    /** string: the same for a thread's messages past the first 8, which its hash's `docs` holds (lua/includes/indexMessage.lua). */
    searchThread: (threadId: string) => `${tag}:s:t:${threadId}`,
    /**
     * hash: inbox id -> its search segments (actors/search-segments.ts), comma-separated entries
     * "<blob hash, base64url> <first document> <last document> <documents>": the immutable SQLite files
     * in the blob store that hold the documents moved out of the keys above.
     */
    searchSegments: `${tag}:s:segs`,
    /** hash: the space's contacts (docs/contract.md, Decision 11), address -> JSON {name?, fields?}: kept while any audience or campaign names them. */
    contacts: `${tag}:contacts`,
    /** sorted set (score 0, lex): the addresses of `contacts`, for the space-wide list_contacts in address order. */
    contactIndex: `${tag}:contacts:index`,
    /** sorted set (score 0, lex): the space's audience ids. */
    audiences: `${tag}:audiences`,
    /** hash: an audience's fields (id, name, created_at, created_by, seq: the last member's rank). */
    audience: (audienceId: string) => `${tag}:aud:${audienceId}`,
    /** sorted set: an audience's member addresses scored by rank of addition (campaigns feed them in that order). */
    audienceMembers: (audienceId: string) => `${tag}:aud:${audienceId}:members`,
    /** sorted set (score 0, lex): the space's campaign ids. */
    campaigns: `${tag}:campaigns`,
    /**
     * hash: a campaign's fields (the campaign actor): its definition, status, the key that started it, and
     * `cursor`, the rank in its audience up to which contacts were claimed.
     */
    campaign: (campaignId: string) => `${tag}:cmp:${campaignId}`,
    /** hash: a campaign's contacts once claimed, address -> JSON state (the campaign actor tells its shape). */
    campaignContacts: (campaignId: string) => `${tag}:cmp:${campaignId}:contacts`,
    /** sorted set: claimed addresses whose message is not yet recorded, scored by claim time (a crashed feeder's are claimed again). */
    campaignClaims: (campaignId: string) => `${tag}:cmp:${campaignId}:claims`,
    /** sorted set: addresses handed back (a refusal that may pass later), fed before the audience's next ones. */
    campaignPending: (campaignId: string) => `${tag}:cmp:${campaignId}:pending`,
    /** sorted set: addresses whose next follow-up is due, scored by when (ms). */
    campaignFollowUps: (campaignId: string) => `${tag}:cmp:${campaignId}:followups`,
    /** sorted set (score 0): queued messages of a paused campaign, out of their inbox's queue until it starts again. */
    campaignHeld: (campaignId: string) => `${tag}:cmp:${campaignId}:held`,
    /** hash: journal line id -> the line's compact JSON (actors/journal.ts). */
    journal: `${tag}:journal`,
    /** hash: the index lists of line id bodies, in buckets of 64 (lua/includes/journalIndexAdd.lua); `* ` lists every line, else an object's prefix (indexPrefix, actors/journal.ts). */
    journalIndex: `${tag}:journal:idx`,
    /**
     * hash: the journal's days moved into the blob store (actors/journal-history.ts): Paris day
     * (YYYY-MM-DD) -> its document's SHA-256 (base64url); `to`, the end (ms) of the moved days: every
     * line before it is in a document, every later one in `journal`.
     */
    journalDays: `${tag}:journal:days`,
  };
}

export type SpaceKeys = ReturnType<typeof keysOf>;

/** Key names are a pure function of the space: built once per space, not at every request (they cost ~4 KB). */
const built = boundedMemo<string, SpaceKeys>(10_000);

export const spaceKeys = (spaceId: string): SpaceKeys => built(spaceId, () => keysOf(spaceId));

/** The field of an inbox's recipients hash (inboxRecipients) that holds the thread of its last test send to `address`; createOutbound writes the same. */
export const testRecipientField = (address: string): string => `test ${address}`;

/**
 * Indexes that span spaces, each under its own hash tag: claimed before a space's script runs and
 * undone if it refuses (never one script across two tags). Values are JSON strings (actors/claims.ts).
 */
export const globalKeys = {
  /**
   * set: the spaces whose human is, or was meant to be, the address whose sha256 names the key: where
   * the sign-in looks (actors/human-session.ts). Added to before the space's script runs and never
   * trusted alone: a member whose human is another address now is skipped.
   */
  human: (emailHash: string) => `${KEY_PREFIX}:{hum:${emailHash}}`,
  /**
   * sorted set, 24 h: the sign-in codes sent for the address (actors/signin-codes.ts), `<requester> <salt>`
   * by time (ms); the requester is `d:<sha256 of a device cookie>` for a browser that signed in as the
   * address before, else `a:<client address>`. Kept for any address asked, a space's human's or not.
   */
  humanCodeSends: (emailHash: string) => `${KEY_PREFIX}:{hum:${emailHash}}:sent`,
  /** hash, 15 min: one sign-in attempt, by sha256 of its id (the code form's hidden field): salt, hash, expires_at, attempts, spaces. */
  humanAttempt: (emailHash: string, attemptHash: string) => `${KEY_PREFIX}:{hum:${emailHash}}:attempt:${attemptHash}`,
  /** sorted set: sha256 of the device cookies of the browsers that signed in as the address -> last sign-in (ms); 10, 180 days. */
  humanDevices: (emailHash: string) => `${KEY_PREFIX}:{hum:${emailHash}}:devices`,
  /**
   * string, expiring: an OAuth client in use by sha256 of its client_id (actors/oauth-clients.ts), its
   * compact record `[issued_at s, name, [redirect URIs]]`: one that registered (RFC 7591), from its first
   * token on, kept 30 days past its last; or a Client ID Metadata Document fetched from its https
   * client_id, kept an hour.
   */
  oauthClient: (clientIdHash: string) => `${KEY_PREFIX}:{ocl:${clientIdHash}}`,
  /**
   * hash: client_id -> compact record of each registered client that never got a token (pending), at
   * most OAUTH_PENDING_CLIENTS, under the anonymous index (ANONYMOUS_INDEX, `anon`).
   */
  pendingClients: (index: string) => `${KEY_PREFIX}:{${index}}:clients`,
  /** sorted set: pending client_id -> registration time (ms): the oldest goes first, and any past a day. */
  pendingClientTimes: (index: string) => `${KEY_PREFIX}:{${index}}:clients:at`,
  /**
   * hash: the budgets of an endpoint reached without a key (actors/anonymous-budget.ts): `*`, the
   * service's, and one per client address admitted lately, each "<tokens> <at ms>".
   */
  anonymousBuckets: (index: string, endpoint: string) => `${KEY_PREFIX}:{${index}}:budget:${endpoint}`,
  /** sorted set: client address -> when its bucket is full again (ms): the buckets the next calls drop. */
  anonymousRefills: (index: string, endpoint: string) => `${KEY_PREFIX}:{${index}}:budget:${endpoint}:full`,
  /**
   * string `{"space_id","inbox_id","state","at"}`: who holds an address. The SMTP side accepts mail for
   * `active` claims; a common-domain address stays claimed forever (`deleted`), never reassigned.
   */
  address: (address: string) => `${KEY_PREFIX}:{addr:${address}}`,
  /** string `{"space_id","domain_id"}`: the space that first proved a domain's ownership (inbound routing too). */
  domain: (domain: string) => `${KEY_PREFIX}:{dom:${domain}}`,
  /**
   * hash: dead address -> JSON (hard bounces, platform-wide), sharded by a hash of the address so no
   * single slot holds them all.
   */
  deadAddresses: (shard: number) => `${KEY_PREFIX}:{dead:${shard}}`,
  /**
   * sorted set: space id -> when its webhook deliveries are next due (ms); a claimed space is scored at
   * the end of its lease (actors/webhook-index.ts). Sharded by a hash of the space id, with the three below,
   * under the index name WEBHOOK_INDEX (`wh`): processes sharing a name deliver each other's spaces.
   */
  webhookDue: (index: string, shard: number) => `${KEY_PREFIX}:{${index}:${shard}}:due`,
  /**
   * set: claimed spaces that got new events since their claim: due again at once when settled; `<space id>
   * now` for one whose webhook was declared meanwhile: at once even when the claim ends on a retry time.
   */
  webhookDirty: (index: string, shard: number) => `${KEY_PREFIX}:{${index}:${shard}}:dirty`,
  /** hash: space id -> token (lease end, ms) of the worker's claim holding it. */
  webhookClaims: (index: string, shard: number) => `${KEY_PREFIX}:{${index}:${shard}}:claims`,
  /** set: spaces that declared a webhook, for the sweeper that repairs a lost wake-up. */
  webhookSpaces: (index: string, shard: number) => `${KEY_PREFIX}:{${index}:${shard}}:spaces`,
  /**
   * pub/sub channel, not a key: a space became due now (wakeSpace); the idle webhook workers of the
   * index look at once instead of at their next due time.
   */
  webhookWakes: (index: string) => `${KEY_PREFIX}:{${index}}:wakes`,
  /**
   * string: the storage format of the whole store, an integer (src/storage/format.ts): written by a
   * fresh store, raised by each step of `mailbox admin migrate`, checked by every process at start.
   */
  storageFormat: `${KEY_PREFIX}:{format}`,
  /**
   * set: "<space id> <campaign id>" of the running campaigns, which the campaign feeder visits, sharded by
   * a hash of the space id (actors/campaign.ts) so no single slot holds them all.
   */
  runningCampaigns: (shard: number) => `${KEY_PREFIX}:{campaigns:${shard}}:running`,
  /**
   * sorted set: space id -> when its earliest queued departure or delivery lease is due (ms), the spaces
   * the delivery sweep visits (actors/due-index.ts), sharded by a hash of the space id.
   */
  dueSpaces: (shard: number) => `${KEY_PREFIX}:{due:${shard}}:at`,
  /** hash: space id -> its registrations in dueSpaces since it joined (a visit drops a space only if none came meanwhile). */
  dueMarks: (shard: number) => `${KEY_PREFIX}:{due:${shard}}:marks`,
  /**
   * sorted set: space id -> when its threads are next looked at for history (ms), every space, sharded by
   * a hash of the space id (actors/history-index.ts); a claimed space is scored at the end of its lease.
   */
  historySpaces: (shard: number) => `${KEY_PREFIX}:{hist:${shard}}`,
  /** string, expiring: held by the one worker sweeping this period. */
  webhookSweep: (index: string) => `${KEY_PREFIX}:{${index}:sweep}`,
  /** string, `<shard>:<SSCAN cursor>`: where the next sweep of webhookSpaces goes on from. */
  webhookSweepPlace: (index: string) => `${KEY_PREFIX}:{${index}:sweep}:place`,
  /** sorted set: `<space id> <instance id>` -> expiry (ms), every open workspace instance (WORKSPACE_INDEX). */
  workspaceInstances: (index: string) => `${KEY_PREFIX}:{${index}}:instances`,
  /** sorted set: wait token -> end of the wait (ms), every workspace_events call held, on any front end. */
  workspaceWaits: (index: string) => `${KEY_PREFIX}:{${index}}:waits`,
};

const EVENTS_KEY = new RegExp(`^${KEY_PREFIX}:\\{(spc_[0-9a-z]+)\\}:events$`);
/** The space whose event stream this key is, or null (src/redis/scripts.ts wakes webhook delivery with it). */
export function spaceOfEventsKey(key: string): string | null {
  return EVENTS_KEY.exec(key)?.[1] ?? null;
}

/** BullMQ queue prefixes: one hash tag per queue, so each queue's keys live in one Cluster slot. */
export const QUEUE_PREFIX = {
  domains: `${KEY_PREFIX}:{q:domains}`,
  erase: `${KEY_PREFIX}:{q:erase}`,
  blobs: `${KEY_PREFIX}:{q:blobs}`,
} as const;

/** The slots of a Redis Cluster. */
export const CLUSTER_SLOTS = 16384;

/** The Cluster slot of a space's keys. */
export const spaceSlot = (spaceId: string): number => calculateSlot(spaceTag(spaceId));

/** How many queues the delivery wake-ups are spread over (src/redis/queues.ts sendQueue). */
export const SEND_QUEUES = 8;

/**
 * The wake-up queues' prefixes, `mbx:{q:send:<i>.<n>}`: for queue i, the first n whose slot lies in the
 * i-th eighth of the slots, so every primary of an evenly split Cluster holds some and a space's
 * wake-ups can be written on its own node.
 */
export const SEND_QUEUE_PREFIXES: readonly string[] = Array.from({ length: SEND_QUEUES }, (_, i) => {
  for (let n = 0; ; n++) {
    const tag = `q:send:${i}.${n}`;
    if (Math.floor((calculateSlot(tag) * SEND_QUEUES) / CLUSTER_SLOTS) === i) return `${KEY_PREFIX}:{${tag}}`;
  }
});
/** Every space's fields hash (spaceKeys(id).space), whatever the space: what the admin commands walk. */
export const SPACE_HASHES = `${KEY_PREFIX}:{spc_*}:space`;

/** The space whose fields hash this key is (SPACE_HASHES). */
export const spaceOfSpaceHash = (key: string): string => key.slice(KEY_PREFIX.length + 2, key.indexOf('}'));

/** Every key of a space matches this (its hash tag puts them in one Cluster slot): erasure SCANs it. */
export const spaceKeyPattern = (spaceId: string): string => `${spaceTag(spaceId)}:*`;
