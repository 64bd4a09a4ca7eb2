/**
 * The named types a script header's `Returns` may use (the generator, src/redis/bindings.ts, imports
 * those a file uses from here): reply shapes several scripts share, and records a script answers as
 * they are stored. Any other shape is written out in its header.
 */
import type { Permission } from '../../src/record-schemas.js';
import type { Reason } from '../../src/texts.js';
export type { Filter } from '../../src/mail/filters.js';

/**
 * Where a contact stands in a campaign (campaignContacts): `claimed` while a feeder writes step `k`
 * (0: the first message, n: the nth follow-up) from inbox `i`; `written` once message `m` of thread
 * `t` is made; `skipped` (never written to) or `stopped` (no more follow-ups) with reason `r`.
 */
export interface ContactState {
  s: 'claimed' | 'written' | 'skipped' | 'stopped';
  k?: number;
  i?: string;
  t?: string;
  m?: string;
  /** Why it was skipped or stopped (src/texts.ts REASONS). */
  r?: Reason;
  at?: number;
  /** Replied while claimed for a follow-up: the feeder's record stops it (lua/campaign/recordReply). */
  rp?: 1;
}

export interface StoredKey {
  id: string;
  kind: 'key' | 'connection';
  name: string;
  name_norm: string;
  permissions: Permission[];
  inbox_ids: string[] | null;
  daily_cap: number | null;
  created_at: string;
  created_by: string | null;
  prefix: string;
  token_hash: string;
  /** A connection's OAuth client, and the host its redirect URI returns to (docs/contract.md, Decision 13). */
  client_id?: string;
  redirect_host?: string;
}

export type SuppressionReason = 'unsubscribe' | 'complaint' | 'bounce' | 'manual';

/** The entry of docs/contract.md, Part 2 (list_suppressions items), plus its id (`sup_...`). */
export interface SuppressionEntry {
  id: string;
  /** A lowercase address, or `@domain` for a domain. */
  value: string;
  kind: 'address' | 'domain';
  reason: SuppressionReason;
  scope: 'space';
  /** Where it came from: the message whose link or bounce it was, or the key that added it. */
  source: string;
  created_at: string;
  /** The caller's words for a manual block (add_suppression's `reason`); absent otherwise. */
  note?: string | null;
}

/** An inbox's counters and next departure as a script read them after its change (lua/includes/inboxFigures.lua). */
export interface InboxFigures {
  drafts: number;
  queued: number;
  /** ms; 0 when nothing waits. */
  next: number;
  /** Departures of the Paris day. */
  sent: number;
}

/** A hash's fields as the script read them (HGETALL, lua/includes/hashToTable.lua): those at their default may be absent. */
export type HashFields = Record<string, string>;

/** An empty Lua list: cjson cannot tell an empty array from an empty object, and writes {}. */
export type EmptyTable = Record<string, never>;
