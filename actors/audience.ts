/**
 * Audiences and contacts (docs/contract.md, Decision 11). A contact is an address of the space with a name and
 * free fields, kept in one hash (address -> small JSON) so a 100,000-contact audience stays near
 * 200 bytes a contact, and its address in a lexical index (the space-wide listing's order); a space
 * holds at most `contacts_per_space` of them. An audience is a hash of fields and a sorted set of its
 * members by rank of addition, which campaigns feed in that order (the campaign actor). lua/audience/
 * writes them. A listing reads its page, never the whole address book.
 */
import { iso } from '../src/clock.js';
import { MailboxError } from '../src/errors.js';
import type { AudienceView, ContactView } from '../src/record-schemas.js';
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import type { Runtime } from '../src/runtime.js';
import { isAddress } from '../src/sending/validate.js';
import { deadAddress } from './dead-addresses.js';
import * as audienceLua from './bindings/audience.generated.js';
import { lineArgs, prepareLine } from './journal.js';
import { actorOf, type Access } from './space.js';
import type { Reason } from '../src/texts.js';

/** At most this many contacts in one add_contacts call. */
export const MAX_CONTACTS_PER_CALL = 1000;
/** add_contacts answers at most this many examples of skipped addresses. */
const MAX_SKIP_EXAMPLES = 20;

export type SkipReason = Extract<Reason, 'invalid' | 'duplicate' | 'suppressed' | 'dead_address'>;

/** A contact as stored: only what was given, so an address alone costs two bytes of JSON. */
export interface StoredContact {
  name?: string;
  fields?: Record<string, string>;
}

export const contactView = (email: string, raw: string | null | undefined): ContactView => {
  const stored = raw ? (JSON.parse(raw) as StoredContact) : {};
  return { email, name: stored.name ?? null, fields: stored.fields ?? {} };
};

function audienceOf(fields: Record<string, string>, count: number): AudienceView {
  return { id: fields.id!, name: fields.name!, contact_count: count, created_at: fields.created_at! };
}

/** The audience, or `not_found` (unknown, deleted, another space's). */
export async function readAudience(rt: Runtime, spaceId: string, audienceId: string): Promise<AudienceView> {
  const keys = spaceKeys(spaceId);
  const [fields, count] = await Promise.all([
    rt.redis.hgetall(keys.audience(audienceId)),
    rt.redis.zcard(keys.audienceMembers(audienceId)),
  ]);
  if (!fields.id) throw new MailboxError('not_found', null, { reason: "Cette audience n'existe pas pour cette clé." });
  return audienceOf(fields, count);
}

export async function createAudience(rt: Runtime, access: Access, name: string): Promise<AudienceView> {
  const keys = spaceKeys(access.space.id);
  const id = rt.ids.next('audience');
  const createdAt = iso(rt.clock.now());
  const line = prepareLine(rt, 'audience.created', actorOf(access), { audience_id: id }, { name });
  await audienceLua.createAudience(
    rt.scripts,
    {
      space: keys.space,
      audiences: keys.audiences,
      audience: keys.audience(id),
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    { audienceId: id, name, nowIso: createdAt, keyId: access.key.id, ...lineArgs(line) },
  );
  return { id, name, contact_count: 0, created_at: createdAt };
}

export async function listAudiences(rt: Runtime, spaceId: string): Promise<AudienceView[]> {
  const keys = spaceKeys(spaceId);
  const ids = await rt.redis.zrange(keys.audiences, '0', '-1');
  const pipeline = rt.redis.pipeline();
  for (const id of ids) pipeline.hgetall(keys.audience(id)).zcard(keys.audienceMembers(id));
  const replies = await execAll<Record<string, string> | number>(pipeline);
  return ids
    .map((_, i) => audienceOf(replies[2 * i] as Record<string, string>, replies[2 * i + 1] as number))
    .filter((a) => a.id);
}

export interface ContactInput {
  email: string;
  name?: string;
  fields?: Record<string, string>;
}

export interface AddContactsResult {
  added: number;
  skipped: Record<SkipReason, number>;
  examples: { email: string; reason: SkipReason }[];
}

/**
 * add_contacts: invalid addresses and the platform's dead ones are set aside here, the rest is judged
 * by the script against the audience (duplicate) and the space's suppression list, atomically.
 */
export async function addContacts(
  rt: Runtime,
  access: Access,
  audienceId: string,
  contacts: readonly ContactInput[],
): Promise<AddContactsResult> {
  const audience = await readAudience(rt, access.space.id, audienceId);
  const examples: AddContactsResult['examples'] = [];
  const skipped: Record<SkipReason, number> = { invalid: 0, duplicate: 0, suppressed: 0, dead_address: 0 };
  const skip = (email: string, reason: SkipReason) => {
    skipped[reason]++;
    if (examples.length < MAX_SKIP_EXAMPLES) examples.push({ email, reason });
  };
  const valid: { email: string; contact: StoredContact | null }[] = [];
  for (const c of contacts) {
    const email = c.email.trim().toLowerCase();
    if (!isAddress(email)) skip(c.email, 'invalid');
    else
      valid.push({
        email,
        contact:
          c.name === undefined && c.fields === undefined
            ? null
            : { ...(c.name ? { name: c.name.trim() } : {}), ...(c.fields ? { fields: c.fields } : {}) },
      });
  }
  const dead = await Promise.all(valid.map((c) => deadAddress(rt, c.email)));
  const kept = valid.filter((c, i) => (dead[i] ? (skip(c.email, 'dead_address'), false) : true));
  const keys = spaceKeys(access.space.id);
  const line = prepareLine(
    rt,
    'contacts.added',
    actorOf(access),
    { audience_id: audienceId },
    { name: audience.name, skipped: skipped.invalid + skipped.dead_address },
  );
  const reply = await audienceLua.addContacts(
    rt.scripts,
    {
      audience: keys.audience(audienceId),
      audienceMembers: keys.audienceMembers(audienceId),
      contacts: keys.contacts,
      contactIndex: keys.contactIndex,
      suppressions: keys.suppressions,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    {
      contacts: JSON.stringify(
        kept.map((c) => ({ email: c.email, contact: c.contact ? JSON.stringify(c.contact) : '' })),
      ),
      maxExamples: MAX_SKIP_EXAMPLES - examples.length,
      ...lineArgs(line),
      maxContacts: rt.config.limits.contacts_per_space,
    },
  );
  skipped.duplicate = reply.duplicate;
  skipped.suppressed = reply.suppressed;
  // An empty Lua table comes back as {} (cjson cannot tell an empty array).
  return {
    added: reply.added,
    skipped,
    examples: [...examples, ...(Array.isArray(reply.examples) ? reply.examples : [])],
  };
}

export async function removeContacts(
  rt: Runtime,
  access: Access,
  audienceId: string,
  emails: readonly string[],
): Promise<number> {
  const audience = await readAudience(rt, access.space.id, audienceId);
  const keys = spaceKeys(access.space.id);
  const line = prepareLine(
    rt,
    'contacts.removed',
    actorOf(access),
    { audience_id: audienceId },
    { name: audience.name },
  );
  const reply = await audienceLua.removeContacts(
    rt.scripts,
    {
      audience: keys.audience(audienceId),
      audienceMembers: keys.audienceMembers(audienceId),
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    { addresses: JSON.stringify(emails.map((e) => e.trim().toLowerCase())), ...lineArgs(line) },
  );
  return reply.removed;
}

export async function deleteAudience(rt: Runtime, access: Access, audienceId: string): Promise<AudienceView> {
  const audience = await readAudience(rt, access.space.id, audienceId);
  const keys = spaceKeys(access.space.id);
  const line = prepareLine(
    rt,
    'audience.deleted',
    actorOf(access),
    { audience_id: audienceId },
    { name: audience.name },
  );
  await audienceLua.deleteAudience(
    rt.scripts,
    {
      audience: keys.audience(audienceId),
      audienceMembers: keys.audienceMembers(audienceId),
      audiences: keys.audiences,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    { audienceId, ...lineArgs(line) },
  );
  return audience;
}

/** One page of contacts: `after` is the last position of the previous page (a rank, or an address). */
export interface ContactPage {
  items: ContactView[];
  next: string | null;
}

const matchesQuery = (query: string | null) => (c: ContactView) =>
  !query || c.email.includes(query) || (c.name !== null && c.name.toLowerCase().includes(query));

/** Members read per round when an audience's contacts are gone through. */
const SCAN_BATCH = 500;
/**
 * Contacts one list_contacts call with a `query` looks at, at most: a page that matches little comes
 * back short, with a cursor to go on from (a contact's fields weigh up to 10 KB).
 */
const LIST_SCAN_MAX = 1000;

/**
 * Calls `visit` with each contact of the audience (address, stored JSON, rank) in rank order, from
 * after rank `after` (null: the first), until it answers false; `batch` members read a round.
 */
export async function eachContact(
  rt: Runtime,
  spaceId: string,
  audienceId: string,
  after: string | null,
  visit: (email: string, raw: string | null, rank: string) => boolean | void,
  batch = SCAN_BATCH,
): Promise<void> {
  const keys = spaceKeys(spaceId);
  let from = after ? `(${after}` : '-inf';
  for (;;) {
    const members = await rt.redis.zrangebyscore(
      keys.audienceMembers(audienceId),
      from,
      '+inf',
      'WITHSCORES',
      'LIMIT',
      0,
      batch,
    );
    if (!members.length) return;
    const emails = members.filter((_, i) => i % 2 === 0);
    const raws = await rt.redis.hmget(keys.contacts, ...emails);
    for (let i = 0; i < emails.length; i++)
      if (visit(emails[i]!, raws[i] ?? null, members[2 * i + 1]!) === false) return;
    from = `(${members[members.length - 1]}`;
  }
}

/**
 * A page of contacts gone through in order by `each`, a page and one more at a time (the one more tells
 * whether another page follows), filtered by the query; with a query, LIST_SCAN_MAX looked at end the
 * call (`next` then names the last one looked at).
 */
async function pageOf(
  query: string | null,
  limit: number,
  each: (visit: (email: string, raw: string | null, position: string) => boolean, batch: number) => Promise<void>,
): Promise<ContactPage> {
  const found: { contact: ContactView; position: string }[] = [];
  let scanned = 0;
  let last: string | null = null;
  await each((email, raw, position) => {
    const contact = contactView(email, raw);
    if (matchesQuery(query)(contact)) found.push({ contact, position });
    last = position;
    return found.length <= limit && ++scanned < (query ? LIST_SCAN_MAX : Infinity);
  }, limit + 1);
  const page = found.slice(0, limit);
  if (found.length > limit) return { items: page.map((f) => f.contact), next: page[page.length - 1]!.position };
  return { items: page.map((f) => f.contact), next: query && scanned >= LIST_SCAN_MAX ? last : null };
}

/** An audience's contacts in rank order, filtered by a part of address or name. */
const audienceContacts = (
  rt: Runtime,
  spaceId: string,
  audienceId: string,
  query: string | null,
  after: string | null,
  limit: number,
) => pageOf(query, limit, (visit, batch) => eachContact(rt, spaceId, audienceId, after, visit, batch));

/** The space's contacts in address order (contactIndex), from after address `after`. */
function spaceContacts(
  rt: Runtime,
  spaceId: string,
  query: string | null,
  after: string | null,
  limit: number,
): Promise<ContactPage> {
  const keys = spaceKeys(spaceId);
  return pageOf(query, limit, async (visit, batch) => {
    let from = after ? `(${after}` : '-';
    for (;;) {
      const emails = await rt.redis.zrangebylex(keys.contactIndex, from, '+', 'LIMIT', 0, batch);
      if (!emails.length) return;
      const raws = await rt.redis.hmget(keys.contacts, ...emails);
      for (let i = 0; i < emails.length; i++) if (!visit(emails[i]!, raws[i] ?? null, emails[i]!)) return;
      from = `(${emails[emails.length - 1]}`;
    }
  });
}

export async function listContacts(
  rt: Runtime,
  spaceId: string,
  q: { audienceId: string | null; query: string | null; after: string | null; limit: number },
): Promise<ContactPage> {
  if (q.audienceId) {
    await readAudience(rt, spaceId, q.audienceId);
    return audienceContacts(rt, spaceId, q.audienceId, q.query, q.after, q.limit);
  }
  return spaceContacts(rt, spaceId, q.query, q.after, q.limit);
}

/** The contact's stored sheet and the audiences it belongs to; null when the space never had it. */
export async function readContact(
  rt: Runtime,
  spaceId: string,
  email: string,
): Promise<{ contact: ContactView; audiences: AudienceView[] } | null> {
  const keys = spaceKeys(spaceId);
  const [raw, audiences] = await Promise.all([rt.redis.hget(keys.contacts, email), listAudiences(rt, spaceId)]);
  if (raw === null) return null;
  const pipeline = rt.redis.pipeline();
  for (const a of audiences) pipeline.zscore(keys.audienceMembers(a.id), email);
  const ranks = await execAll<string | null>(pipeline);
  return { contact: contactView(email, raw), audiences: audiences.filter((_, i) => ranks[i] !== null) };
}
