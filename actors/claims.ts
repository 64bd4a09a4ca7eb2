/**
 * Global claims: the indexes that span spaces (address -> inbox, domain -> owning space), each key
 * under its own hash tag. A behaviour that needs one claims it first, then runs its space's script,
 * and gives the claim back if the script refuses: never one script across two tags (Redis Cluster).
 */
import type { Runtime } from '../src/runtime.js';
import * as claimLua from './bindings/claim.generated.js';

/** Who holds an address; the SMTP side accepts mail for `active` claims only. */
export interface AddressClaim {
  space_id: string;
  inbox_id: string;
  state: 'active' | 'deleted';
  /** When it was claimed (ms): a claim whose inbox never came is taken over after a grace period. */
  at: number;
}

/** The space that first proved a domain's ownership. */
export interface DomainClaim {
  space_id: string;
  domain_id: string;
}

export interface Claimed<T> {
  /** The stored JSON, exactly: what a later swap must name as `expected`. */
  raw: string;
  value: T;
}

export async function readClaim<T>(rt: Runtime, key: string): Promise<Claimed<T> | null> {
  const raw = await rt.redis.get(key);
  return raw === null ? null : { raw, value: JSON.parse(raw) as T };
}

/**
 * Moves a claim from `expected` (null: absent) to `next` (null: removed), atomically. False when the
 * claim was not `expected` any more: someone else took or changed it first.
 */
export async function swapClaim(
  rt: Runtime,
  key: string,
  expected: string | null,
  next: string | null,
): Promise<boolean> {
  const reply = await claimLua.swap(rt.scripts, { claim: key }, { expected: expected ?? '', next: next ?? '' });
  return reply.ok;
}
