/**
 * The space's filters (docs/contract.md, Decision 14): per inbox or for the whole space, `receive` or `send`,
 * `allow` or `block`. One hash, filter id -> JSON, written by lua/filter/ with its journal line; the
 * rules that apply them are pure (src/mail/filters.ts). A key restricted to inboxes adds and removes
 * only its inboxes' filters; it reads the space-wide ones, which only a key for all inboxes changes.
 */
import { iso } from '../src/clock.js';
import { MailboxError } from '../src/errors.js';
import type { Filter } from '../src/mail/filters.js';
import { spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import * as filterLua from './bindings/filter.generated.js';
import { appendLine, lineArgs, prepareLine, SERVICE_ACTOR, type JournalRefs } from './journal.js';
import { actorOf, type Access } from './space.js';

/** Most filters a space may hold. */
export const MAX_FILTERS = 1000;

/** Every filter of the space, oldest first (ids are time-ordered). */
export async function readFilters(rt: Runtime, spaceId: string): Promise<Filter[]> {
  const values = await rt.redis.hvals(spaceKeys(spaceId).filters);
  return values.map((raw) => JSON.parse(raw) as Filter).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The filters a key sees: all of them, or for a key restricted to inboxes, its inboxes' and the space's. */
export const visibleFilters = (access: Access, filters: readonly Filter[]): Filter[] =>
  filters.filter((f) => !access.key.inbox_ids || f.inbox_id === null || access.key.inbox_ids.includes(f.inbox_id));

/** A space-wide filter concerns every inbox: a key restricted to some of them may not change it. */
function requireWholeSpace(access: Access): void {
  if (access.key.inbox_ids)
    throw new MailboxError('forbidden', null, {
      reason: "Un filtre de tout l'espace ne se change qu'avec une clé sans restriction de boîtes.",
    });
}

const lineData = (f: Filter) => ({
  filter_id: f.id,
  inbox_id: f.inbox_id,
  direction: f.direction,
  action: f.action,
  value: f.value,
});
const refsOf = (f: Filter): JournalRefs => (f.inbox_id ? { inbox_id: f.inbox_id } : {});

/** add_filter, for an inbox the caller checked it may use (or null: the whole space). */
export async function addFilter(
  rt: Runtime,
  access: Access,
  spec: Pick<Filter, 'inbox_id' | 'direction' | 'action' | 'value'>,
): Promise<{ created: boolean; filter: Filter }> {
  if (spec.inbox_id === null) requireWholeSpace(access);
  const keys = spaceKeys(access.space.id);
  const filter: Filter = {
    id: rt.ids.next('filter'),
    ...spec,
    created_at: iso(rt.clock.now()),
    created_by: access.key.id,
  };
  const line = prepareLine(rt, 'filter.added', actorOf(access), refsOf(filter), lineData(filter));
  return filterLua.addFilter(
    rt.scripts,
    { space: keys.space, filters: keys.filters, journal: keys.journal, journalIndex: keys.journalIndex },
    { filter: JSON.stringify(filter), maxFilters: MAX_FILTERS, ...lineArgs(line) },
  );
}

/**
 * remove_filter: not_found for an unknown id, another space's, or another inbox's for a restricted
 * key; forbidden for a space-wide one and a restricted key. A concurrent removal answers not_found.
 */
export async function removeFilter(rt: Runtime, access: Access, filterId: string): Promise<Filter> {
  const keys = spaceKeys(access.space.id);
  const raw = await rt.redis.hget(keys.filters, filterId);
  const filter = raw ? (JSON.parse(raw) as Filter) : null;
  if (!filter || !visibleFilters(access, [filter]).length)
    throw new MailboxError('not_found', null, { reason: "Ce filtre n'existe pas pour cette clé." });
  if (filter.inbox_id === null) requireWholeSpace(access);
  const line = prepareLine(rt, 'filter.removed', actorOf(access), refsOf(filter), lineData(filter));
  await filterLua.removeFilter(
    rt.scripts,
    { filters: keys.filters, journal: keys.journal, journalIndex: keys.journalIndex },
    { filterId, ...lineArgs(line) },
  );
  return filter;
}

/** A received message refused by a filter: journaled (no event, nothing stored), by the service. */
export async function journalFiltered(
  rt: Runtime,
  spaceId: string,
  inboxId: string,
  mail: { from: string; envelope_from: string; subject: string },
  filter: Filter,
): Promise<void> {
  const refs: JournalRefs = { inbox_id: inboxId, ...(mail.from ? { contact: mail.from } : {}) };
  await appendLine(
    rt,
    spaceId,
    prepareLine(rt, 'message.filtered', SERVICE_ACTOR, refs, { ...mail, filter_id: filter.id, action: filter.action }),
  );
}
