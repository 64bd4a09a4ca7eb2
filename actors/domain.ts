/**
 * The Domain actor: a space's own sending domain, from `pending` (records to publish) to `verified`
 * (inboxes can live on it), `suspended` when a required record disappears, back to `verified` when it
 * is restored. Its fields are a hash under the space's tag, by name; the space that first proves
 * ownership holds the global domain claim (actors/claims.ts). DNS queries run here, before the
 * script that records their outcome; rechecks are BullMQ job schedulers (src/redis/queues.ts).
 */
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { Runtime } from '../src/runtime.js';
import { globalKeys, spaceKeys } from '../src/redis/keys.js';
import { iso } from '../src/clock.js';
import { requireMasterKey, seal } from '../src/crypto.js';
import { MailboxError } from '../src/errors.js';
import { domainReasonText } from '../src/texts.js';
import { randomBase62 } from '../src/ids.js';
import { createDns } from '../src/domains/dns.js';
import { isWithin } from '../src/domains/names.js';
import { isPublicMailDomain } from '../src/domains/public-domains.js';
import {
  DKIM_SELECTORS,
  expectedRecords,
  judgeRecords,
  missingRequired,
  recordKey,
  recordViews,
  type Checks,
} from '../src/domains/dns-records.js';
import { cancelDomainRecheck, scheduleDomainRecheck } from '../src/redis/queues.js';
import { readClaim, swapClaim, type DomainClaim } from './claims.js';
import { prepareEvent } from './events.js';
import * as domainLua from './bindings/domain.generated.js';
import { lineArgs, prepareLine, SERVICE_ACTOR, type Actor } from './journal.js';
import { actorOf, type Access } from './space.js';
import type { DomainView } from '../src/record-schemas.js';

export type DomainStatus = 'pending' | 'verified' | 'suspended';

const DOMAIN_LIMIT = 5;

/** The domain hash, as stored (string fields; '' for none; JSON for lists). */
export interface StoredDomain {
  id: string;
  domain: string;
  status: DomainStatus;
  status_reason: string;
  verified_at: string;
  last_checked_at: string;
  created_at: string;
  created_by: string;
  /** The ownership proof's token, fresh at every registration. */
  token: string;
  /** JSON array: base64 SubjectPublicKeyInfo per DKIM selector. */
  dkim_public: string;
  /** JSON array: the PKCS#8 private keys, sealed under the master key (src/crypto.ts), per selector. */
  dkim_private: string;
  /** JSON of the last check's Checks, '' before the first one. */
  checks: string;
  /** Live inboxes of the space on this domain: remove_domain is refused above 0. */
  live_inboxes: string;
}

const generateRsa = promisify(generateKeyPair);

/** The context a DKIM private key is sealed under: it opens for that domain and selector only. */
export const dkimContext = (domainId: string, selector: string): string => `dkim:${domainId}:${selector}`;

const expectedOf = (rt: Runtime, stored: StoredDomain) =>
  expectedRecords(
    { domain: stored.domain, token: stored.token, dkim_public: JSON.parse(stored.dkim_public) as string[] },
    rt.config,
  );

export function domainView(rt: Runtime, stored: StoredDomain): DomainView {
  const checks = stored.checks ? (JSON.parse(stored.checks) as Checks) : {};
  const records = recordViews(expectedOf(rt, stored), checks);
  // The reason a code (records_missing), its records those the last check missed.
  const reason =
    stored.status_reason &&
    domainReasonText(
      stored.status_reason,
      missingRequired(records).map((r) => r.label),
    );
  return {
    id: stored.id,
    domain: stored.domain,
    status: stored.status,
    status_reason: reason || null,
    verified_at: stored.verified_at || null,
    last_checked_at: stored.last_checked_at || null,
    records,
  };
}

export async function readDomain(rt: Runtime, spaceId: string, name: string): Promise<StoredDomain | null> {
  const fields = await rt.redis.hgetall(spaceKeys(spaceId).domain(name));
  return fields.id ? (fields as unknown as StoredDomain) : null;
}

const notFound = () =>
  new MailboxError('not_found', null, { reason: "Ce domaine n'est pas enregistré pour cet espace." });

/** The space's domains in registration order (ids are time-ordered); at most five. */
export async function listDomains(rt: Runtime, spaceId: string): Promise<StoredDomain[]> {
  const names = Object.entries(await rt.redis.hgetall(spaceKeys(spaceId).domains)).sort(([, a], [, b]) =>
    a < b ? -1 : 1,
  );
  const found = await Promise.all(names.map(([name]) => readDomain(rt, spaceId, name)));
  return found.filter((d): d is StoredDomain => d !== null);
}

/**
 * Where create_inbox puts an inbox: the domain asked for, or the space's first verified domain, else
 * the common domain. Refusals tell which domains would do.
 */
export async function sendingDomainFor(
  rt: Runtime,
  spaceId: string,
  requested: string | null,
): Promise<{ domain: string; shared: boolean }> {
  const common = rt.config.commonDomain;
  const domains = await listDomains(rt, spaceId);
  const verified = domains.filter((d) => d.status === 'verified').map((d) => d.domain);
  if (requested === null) {
    if (verified[0]) return { domain: verified[0], shared: false };
    if (common) return { domain: common, shared: true };
    throw new MailboxError('no_sending_domain');
  }
  if (common && requested === common) return { domain: common, shared: true };
  const own = domains.find((d) => d.domain === requested);
  if (!own) {
    const allowed = [...verified, ...(common ? [common] : [])];
    if (!allowed.length) throw new MailboxError('no_sending_domain');
    throw new MailboxError('domain_not_allowed', { allowed_domains: allowed });
  }
  if (own.status === 'pending') throw new MailboxError('domain_not_verified');
  if (own.status === 'suspended') throw new MailboxError('domain_suspended');
  return { domain: own.domain, shared: false };
}

export async function addDomain(rt: Runtime, access: Access, name: string): Promise<StoredDomain> {
  const spaceId = access.space.id;
  if (isPublicMailDomain(name)) throw new MailboxError('public_mail_domain');
  const serviceDomains = [...rt.config.serviceDomains, ...(rt.config.commonDomain ? [rt.config.commonDomain] : [])];
  if (serviceDomains.some((own) => isWithin(name, own))) {
    throw new MailboxError('domain_not_allowed', null, {
      reason: "C'est un domaine du service. Enregistrez un domaine qui vous appartient.",
    });
  }
  if (access.space.plan === 'none')
    throw new MailboxError('payment_required', null, { reason: "l'ajout d'un domaine" });
  const masterKey = requireMasterKey(rt.config);
  const claim = await readClaim<DomainClaim>(rt, globalKeys.domain(name));
  if (claim && claim.value.space_id !== spaceId) throw new MailboxError('domain_taken');

  const id = rt.ids.next('domain');
  const pairs = await Promise.all(
    DKIM_SELECTORS.map(() =>
      generateRsa('rsa', {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'der' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      }),
    ),
  );
  const stored: StoredDomain = {
    id,
    domain: name,
    status: 'pending',
    status_reason: '',
    verified_at: '',
    last_checked_at: '',
    created_at: iso(rt.clock.now()),
    created_by: access.key.id,
    token: randomBase62(32),
    dkim_public: JSON.stringify(pairs.map((pair) => pair.publicKey.toString('base64'))),
    dkim_private: JSON.stringify(
      pairs.map((pair, i) => seal(masterKey, pair.privateKey, dkimContext(id, DKIM_SELECTORS[i]!))),
    ),
    checks: '',
    live_inboxes: '0',
  };
  const keys = spaceKeys(spaceId);
  const line = prepareLine(rt, 'domain.added', actorOf(access), { domain: name }, { domain: name, domain_id: id });
  await domainLua.addDomain(
    rt.scripts,
    {
      space: keys.space,
      domains: keys.domains,
      domain: keys.domain(name),
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    { domainId: id, name, fields: JSON.stringify(stored), maxDomains: DOMAIN_LIMIT, ...lineArgs(line) },
  );
  return stored;
}

/**
 * One DNS check of a registered domain, then its outcome recorded by one script: states per record,
 * and the transition (pending or suspended -> verified, verified -> suspended) with its journal line
 * and event. Proving ownership claims the domain for the space, unless another space did first.
 * `manual` (verify_domain) also journals a check that changes nothing.
 */
async function checkDomain(
  rt: Runtime,
  spaceId: string,
  stored: StoredDomain,
  actor: Actor,
  manual: boolean,
): Promise<StoredDomain> {
  const name = stored.domain;
  const claimKey = globalKeys.domain(name);
  const held = await readClaim<DomainClaim>(rt, claimKey);
  if (held && held.value.space_id !== spaceId) throw new MailboxError('domain_taken');

  const expected = expectedOf(rt, stored);
  const checks = await judgeRecords(createDns(rt.config), expected);
  const ownership = checks[recordKey(expected.find((r) => r.role === 'ownership')!)]!;
  const ours = JSON.stringify({ space_id: spaceId, domain_id: stored.id } satisfies DomainClaim);
  const claimedNow = ownership.state === 'found' && held?.raw !== ours;
  if (claimedNow && !(await swapClaim(rt, claimKey, held?.raw ?? null, ours))) throw new MailboxError('domain_taken');

  const records = recordViews(expected, checks);
  const missing = missingRequired(records);
  const required = records.filter((r) => r.required).length;
  const reason = missing.length ? 'records_missing' : '';
  const labels = missing.map((r) => r.label);
  const keys = spaceKeys(spaceId);
  const refs = { domain: name };
  const line = prepareLine(rt, 'domain.checked', actor, refs, {
    domain: name,
    found: required - missing.length,
    required,
    reason,
    missing: labels,
  });
  // The script picks the event of the transition it makes (the domain's state is read there).
  const ids = { domain: name, domain_id: stored.id };
  const event = (type: 'mail.domain.verified' | 'mail.domain.suspended', data: Record<string, unknown>) =>
    prepareEvent(rt, spaceId, type, { refs: { domain_id: stored.id } }, { ...ids, ...data });
  const events = missing.length
    ? {
        verifiedEvent: '',
        restoredEvent: '',
        suspendedEvent: event('mail.domain.suspended', { reason: domainReasonText(reason, labels), missing: labels }),
      }
    : {
        verifiedEvent: event('mail.domain.verified', { restored: false }),
        restoredEvent: event('mail.domain.verified', { restored: true }),
        suspendedEvent: '',
      };
  let reply: domainLua.RecordCheckReply;
  try {
    reply = await domainLua.recordCheck(
      rt.scripts,
      { domain: keys.domain(name), events: keys.events, journal: keys.journal, journalIndex: keys.journalIndex },
      {
        domainId: stored.id,
        nowIso: iso(rt.clock.now()),
        checks: JSON.stringify(checks),
        found: !missing.length,
        reason,
        asked: manual,
        ...lineArgs(line),
        ...events,
      },
    );
  } catch (error) {
    // Removed while DNS answered: the claim taken for it goes back to what it was.
    if (claimedNow) await swapClaim(rt, claimKey, ours, held?.raw ?? null);
    throw error;
  }
  // A tool's check also sets the schedule again: it repairs one lost to a crash after the script.
  if (manual || reply.status !== reply.previous) await scheduleDomainRecheck(rt, spaceId, stored.id, reply.status);
  return (await readDomain(rt, spaceId, name))!;
}

export async function verifyDomain(rt: Runtime, access: Access, name: string): Promise<StoredDomain> {
  const stored = await readDomain(rt, access.space.id, name);
  if (!stored) throw notFound();
  return checkDomain(rt, access.space.id, stored, actorOf(access), true);
}

/**
 * The scheduled recheck (daily when verified, hourly when suspended), also called by tests after
 * moving the clock. A domain removed since is forgotten, its scheduler with it. Returns the domain
 * after the check, or null when it no longer exists.
 */
export async function recheckDomain(rt: Runtime, spaceId: string, domainId: string): Promise<StoredDomain | null> {
  const stored = (await listDomains(rt, spaceId)).find((d) => d.id === domainId);
  if (!stored) {
    await cancelDomainRecheck(rt, spaceId, domainId);
    return null;
  }
  return checkDomain(rt, spaceId, stored, SERVICE_ACTOR, false);
}

/**
 * Removes a domain with no live inbox of the space on it: its claim is released (the mail server stops
 * receiving for it) and its recheck stops. True in `remote_domain_removed` when it had reached the
 * mail server, i.e. the space held its claim.
 */
export async function removeDomain(
  rt: Runtime,
  access: Access,
  name: string,
): Promise<{ remote_domain_removed: boolean }> {
  const spaceId = access.space.id;
  const keys = spaceKeys(spaceId);
  const line = prepareLine(rt, 'domain.removed', actorOf(access), { domain: name }, { domain: name });
  const { id } = await domainLua.removeDomain(
    rt.scripts,
    { domains: keys.domains, domain: keys.domain(name), journal: keys.journal, journalIndex: keys.journalIndex },
    { name, ...lineArgs(line) },
  );
  await cancelDomainRecheck(rt, spaceId, id);
  const ours = JSON.stringify({ space_id: spaceId, domain_id: id } satisfies DomainClaim);
  return { remote_domain_removed: await swapClaim(rt, globalKeys.domain(name), ours, null) };
}
