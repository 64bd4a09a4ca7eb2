/**
 * Inbox filters (docs/contract.md, Decision 14): which correspondents an inbox may write to and hear from. Pure
 * rules: the filters come from actors/filter.ts, the sends and the received mail from their callers.
 * A value is a lowercase address (`paul@exemple.fr`), a domain (`exemple.fr`: that domain only) or a
 * domain with a leading dot (`.exemple.fr`: the domain and all its subdomains), domains in punycode.
 */
import { asciiDomain, isWithin, normaliseDomain } from '../domains/names.js';
import { MailboxError } from '../errors.js';
import type { FilterView } from '../record-schemas.js';
import { isAddress } from '../sending/validate.js';

/** A filter as stored and shown (src/record-schemas.ts FilterSchema). */
export type Filter = FilterView;
type FilterDirection = Filter['direction'];
type FilterAction = Filter['action'];

const invalidValue = () =>
  new MailboxError(
    'invalid_argument',
    { parameter: 'value' },
    {
      reason:
        'une adresse (paul@exemple.fr), un domaine (exemple.fr) ou un domaine et ses sous-domaines (.exemple.fr) est attendu.',
    },
  );

/** The stored form of a caller's value; invalid_argument for anything else. */
export function filterValue(raw: string): string {
  const value = raw.trim().toLowerCase();
  const at = value.lastIndexOf('@');
  if (at > 0) {
    const address = `${value.slice(0, at)}@${asciiDomain(value.slice(at + 1))}`;
    if (!isAddress(address)) throw invalidValue();
    return address;
  }
  const subdomains = value.startsWith('.');
  const name = subdomains ? value.slice(1) : value;
  if (!name || name.startsWith('.') || at === 0) throw invalidValue();
  try {
    return (subdomains ? '.' : '') + normaliseDomain(name, 'value');
  } catch {
    throw invalidValue();
  }
}

const domainOf = (address: string): string => asciiDomain(address.slice(address.lastIndexOf('@') + 1).toLowerCase());

/** True when the filter's value names this address: the address itself, its domain, or a parent under `.domain`. */
export function matches(value: string, address: string): boolean {
  if (!address.includes('@')) return false;
  if (value.includes('@'))
    return value === `${address.slice(0, address.lastIndexOf('@')).toLowerCase()}@${domainOf(address)}`;
  return value.startsWith('.') ? isWithin(domainOf(address), value.slice(1)) : domainOf(address) === value;
}

/** The filters that apply to an inbox: its own and the space's. */
export const ofInbox = (filters: readonly Filter[], inboxId: string): Filter[] =>
  filters.filter((f) => f.inbox_id === null || f.inbox_id === inboxId);

const applying = (filters: readonly Filter[], inboxId: string, direction: FilterDirection): Filter[] =>
  ofInbox(filters, inboxId).filter((f) => f.direction === direction);

/** How many filters of each kind: what inbox_status and get_settings show. */
export function filterCounts(filters: readonly Filter[]) {
  const count = (direction: FilterDirection, action: FilterAction) =>
    filters.filter((f) => f.direction === direction && f.action === action).length;
  return {
    receive_allow: count('receive', 'allow'),
    receive_block: count('receive', 'block'),
    send_allow: count('send', 'allow'),
    send_block: count('send', 'block'),
  };
}

/**
 * The filter that refuses a send from this inbox to `to`, or null: a matching block, else, when the
 * inbox or the space has any `send` allow, the first allow when none matches.
 */
export function sendRefusal(filters: readonly Filter[], inboxId: string, to: string): Filter | null {
  const own = applying(filters, inboxId, 'send');
  const block = own.find((f) => f.action === 'block' && matches(f.value, to));
  if (block) return block;
  const allows = own.filter((f) => f.action === 'allow');
  return allows.length && !allows.some((f) => matches(f.value, to)) ? allows[0]! : null;
}

/** Who a received message says it is from, and whether that claim was proven on this message. */
export interface Sender {
  /** The From header's address ('' when none). */
  from: string;
  /** The envelope sender (MAIL FROM, '' for a null sender). */
  envelope: string;
  /** The From domain passed DMARC, or a DKIM signature or SPF aligned with it passed. */
  authenticated: boolean;
}

/**
 * The filter that refuses a received message for this inbox, or null: a `receive` block matching the
 * From or the envelope sender (authenticated or not: a block costs a forger nothing to honour), else,
 * once the inbox or the space has any `receive` allow, the first allow when none matches an
 * authenticated From (a forged From never slips through an allow).
 */
export function receiveRefusal(filters: readonly Filter[], inboxId: string, sender: Sender): Filter | null {
  const own = applying(filters, inboxId, 'receive');
  const block = own.find(
    (f) => f.action === 'block' && (matches(f.value, sender.from) || matches(f.value, sender.envelope)),
  );
  if (block) return block;
  const allows = own.filter((f) => f.action === 'allow');
  if (!allows.length) return null;
  return sender.authenticated && allows.some((f) => matches(f.value, sender.from)) ? null : allows[0]!;
}

/** Relaxed alignment, near enough without a public suffix list: one domain is the other or under it. */
const aligned = (a: string, b: string): boolean => Boolean(a && b) && (isWithin(a, b) || isWithin(b, a));

/**
 * Whether the From of a received message was authenticated, from its verdicts (src/smtp/parse.ts
 * authSummary): DMARC pass, or a passing DKIM signature of an aligned domain, or SPF pass for an
 * aligned envelope sender.
 */
export function fromAuthenticated(auth: Record<string, unknown>, from: string, envelope: string): boolean {
  if (!from.includes('@')) return false;
  if (auth.dmarc === 'pass') return true;
  const fromDomain = domainOf(from);
  const signatures = Array.isArray(auth.dkim) ? (auth.dkim as { domain?: unknown; result?: unknown }[]) : [];
  if (
    signatures.some(
      (s) => s.result === 'pass' && typeof s.domain === 'string' && aligned(s.domain.toLowerCase(), fromDomain),
    )
  )
    return true;
  return auth.spf === 'pass' && envelope.includes('@') && aligned(domainOf(envelope), fromDomain);
}
