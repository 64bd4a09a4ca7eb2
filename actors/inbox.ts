/**
 * The Inbox actor: an address of the space, on the common domain or on one of its own verified
 * domains. Its fields are a hash under the space's tag; its address is claimed in a global index
 * (actors/claims.ts) that the SMTP side reads to accept mail. Each behaviour is one script of lua/inbox/.
 */
import type { Runtime } from '../src/runtime.js';
import { globalKeys, spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import { iso } from '../src/clock.js';
import { planOf } from '../src/config.js';
import { MailboxError } from '../src/errors.js';
import { reasonText, suspensionText } from '../src/texts.js';
import { readClaim, swapClaim, type AddressClaim } from './claims.js';
import { prepareEvent } from './events.js';
import * as inboxLua from './bindings/inbox.generated.js';
import { lineArgs, prepareLine, SERVICE_ACTOR } from './journal.js';
import { actorOf, type Access } from './space.js';
import { inboxOf, queueInbox, readInbox, type StoredInbox } from './stored-records.js';
import { cancelInboxMessages } from './waiting.js';

const WEEK_MS = 7 * 24 * 3600 * 1000;
/**
 * A claim whose inbox does not exist this long after it was taken is left over from a process that
 * died between the claim and the space's script: it may be taken over.
 */
const CLAIM_GRACE_MS = 60_000;

/** An inbox the calling key may see: others (another space's, outside its `inbox_ids`, deleted if asked) are `not_found`. */
export async function visibleInbox(
  rt: Runtime,
  access: Access,
  inboxId: string,
  options: { live: boolean },
): Promise<StoredInbox> {
  const own = access.key.inbox_ids;
  const inbox = own && !own.includes(inboxId) ? null : await readInbox(rt, access.space.id, inboxId);
  if (!inbox || (options.live && inbox.status === 'deleted'))
    throw new MailboxError('not_found', null, { reason: "Cette boîte n'existe pas pour cette clé." });
  return inbox;
}

/**
 * Takes the address for this inbox: free, or left over by a creation that never finished, or by a
 * deletion that stopped before its claim (then finished here). False when another inbox holds it (or
 * held it: a common-domain address is never given again).
 */
async function claimAddress(rt: Runtime, key: string, claim: string): Promise<boolean> {
  if (await swapClaim(rt, key, null, claim)) return true;
  const held = await readClaim<AddressClaim>(rt, key);
  if (!held) return swapClaim(rt, key, null, claim);
  const { space_id, inbox_id, state, at } = held.value;
  if (state !== 'active') return false;
  const [id, status, shared] = await rt.redis.hmget(spaceKeys(space_id).inbox(inbox_id), 'id', 'status', 'shared');
  if (status === 'deleted') {
    return (await retireClaim(rt, key, held.raw, shared === '1')) && shared !== '1' && swapClaim(rt, key, null, claim);
  }
  return !id && rt.clock.now() - at > CLAIM_GRACE_MS && swapClaim(rt, key, held.raw, claim);
}

/**
 * delete_inbox's last step: a common-domain address stays retired (its claim says `deleted`), an own
 * domain's is given back. False when the claim is no longer the one expected.
 */
function retireClaim(rt: Runtime, key: string, claim: string, shared: boolean): Promise<boolean> {
  const next = shared ? JSON.stringify({ ...(JSON.parse(claim) as AddressClaim), state: 'deleted' }) : null;
  return swapClaim(rt, key, claim, next);
}

/**
 * Where SMTP found a live claim on a deleted inbox (a delete_inbox that stopped before its claim):
 * finishes that step, so the address is refused at RCPT from then on.
 */
export async function retireClaimOfDeleted(rt: Runtime, spaceId: string, inboxId: string): Promise<void> {
  const [status, shared, address, claim] = await rt.redis.hmget(
    spaceKeys(spaceId).inbox(inboxId),
    'status',
    'shared',
    'address',
    'claim',
  );
  if (status === 'deleted' && address && claim)
    await retireClaim(rt, globalKeys.address(address), claim, shared === '1');
}

export interface NewInbox {
  username: string;
  domain: string;
  shared: boolean;
  display_name: string;
}

export async function createInbox(rt: Runtime, access: Access, spec: NewInbox): Promise<StoredInbox> {
  const spaceId = access.space.id;
  const keys = spaceKeys(spaceId);
  const id = rt.ids.next('inbox');
  const now = rt.clock.now();
  const address = `${spec.username}@${spec.domain}`;
  const claimKey = globalKeys.address(address);
  const claim = JSON.stringify({ space_id: spaceId, inbox_id: id, state: 'active', at: now } satisfies AddressClaim);
  const inbox: StoredInbox = {
    id,
    address,
    username: spec.username,
    domain: spec.domain,
    display_name: spec.display_name,
    shared: spec.shared ? '1' : '0',
    status: 'active',
    status_changed_at: '',
    status_reason: '',
    review: 'none',
    review_requested_at: '',
    review_message: '',
    created_at: iso(now),
    created_by: access.key.id,
    deleted_at: '',
    claim,
  };
  if (!(await claimAddress(rt, claimKey, claim))) throw new MailboxError('address_taken');
  const caps = {
    none: planOf(rt.config, 'none').inbox_cap,
    ...Object.fromEntries(Object.values(rt.config.plans).map((p) => [p.name, p.inbox_cap])),
  };
  const line = prepareLine(
    rt,
    'inbox.created',
    actorOf(access),
    { inbox_id: id, domain: spec.domain },
    { address, display_name: spec.display_name },
  );
  try {
    await inboxLua.createInbox(
      rt.scripts,
      {
        space: keys.space,
        inboxes: keys.inboxes,
        inboxCreations: keys.inboxCreations,
        inbox: keys.inbox(id),
        domain: keys.domain(spec.domain),
        journal: keys.journal,
        journalIndex: keys.journalIndex,
      },
      {
        inboxId: id,
        fields: JSON.stringify(inbox),
        now,
        common: spec.shared,
        caps: JSON.stringify(caps),
        window: WEEK_MS,
        ...lineArgs(line),
      },
    );
  } catch (error) {
    await swapClaim(rt, claimKey, claim, null);
    if (error instanceof MailboxError && error.code === 'payment_required') {
      throw new MailboxError('payment_required', null, { reason: 'une deuxième boîte' });
    }
    throw error;
  }
  return inbox;
}

/** The live inboxes the key may see, newest first (a space holds at most its plan's cap of them). */
export async function listLiveInboxes(rt: Runtime, access: Access): Promise<StoredInbox[]> {
  const keys = spaceKeys(access.space.id);
  const own = access.key.inbox_ids;
  const ids = (await rt.redis.zrevrangebylex(keys.inboxes, '+', '-')).filter((id) => !own || own.includes(id));
  if (!ids.length) return [];
  const pipeline = rt.redis.pipeline();
  for (const id of ids) queueInbox(pipeline, access.space.id, id);
  return (await execAll<(string | null)[]>(pipeline))
    .map(inboxOf)
    .filter((inbox): inbox is StoredInbox => inbox !== null);
}

/**
 * Deletes an inbox: the SMTP side stops accepting its address (released on an own domain, kept
 * forever as `deleted` on the common domain). Its drafts and queued messages are cancelled once it is
 * marked deleted, so that no new message can join them meanwhile (a send to a deleted inbox is refused).
 */
export async function deleteInbox(
  rt: Runtime,
  access: Access,
  inboxId: string,
): Promise<{ cancelled_messages: number }> {
  const inbox = await visibleInbox(rt, access, inboxId, { live: true });
  if (inbox.status === 'suspended')
    throw new MailboxError('inbox_suspended', null, { reason: reasonText(inbox.status_reason) });
  const keys = spaceKeys(access.space.id);
  const line = prepareLine(
    rt,
    'inbox.deleted',
    actorOf(access),
    { inbox_id: inboxId, domain: inbox.domain },
    { address: inbox.address },
  );
  await inboxLua.deleteInbox(
    rt.scripts,
    {
      inbox: keys.inbox(inboxId),
      inboxes: keys.inboxes,
      domain: keys.domain(inbox.domain),
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    { inboxId, nowIso: iso(rt.clock.now()), ...lineArgs(line) },
  );
  // A crash here leaves the claim active on a deleted inbox: the next creation of the address or the
  // next mail to it finishes this step (claimAddress, retireClaimOfDeleted).
  if (!(await retireClaim(rt, globalKeys.address(inbox.address), inbox.claim, inbox.shared === '1'))) {
    rt.log.warn('address claim changed under a deleted inbox', { inbox_id: inboxId });
  }
  return { cancelled_messages: await cancelInboxMessages(rt, access.space.id, actorOf(access), inboxId) };
}

/** An inbox's last 7 days as the circuit breaker judges them (actors/breaker.ts). */
export interface BreakerFigures {
  sent_7d: number;
  bounced_7d: number;
  complaints_7d: number;
  bounce_rate: number;
  complaint_rate: number;
}

/**
 * Suspends an active inbox (the circuit breaker's call): it stops sending, keeps receiving, and
 * `mail.inbox.suspended` is emitted. False when it was already suspended. `reason` is a code of
 * REASONS (src/texts.ts; the breaker's: bounce_rate, complaint_rate), stored as the inbox's
 * status_reason; the figures that tripped it go to the journal line, and the event tells both in French.
 */
export async function suspendInbox(
  rt: Runtime,
  spaceId: string,
  inboxId: string,
  reason: string,
  figures: Partial<BreakerFigures> = {},
): Promise<boolean> {
  const inbox = await readInbox(rt, spaceId, inboxId);
  if (!inbox) throw new MailboxError('not_found');
  const keys = spaceKeys(spaceId);
  const refs = { inbox_id: inboxId, domain: inbox.domain };
  const { sent_7d, bounced_7d, complaints_7d } = figures;
  const line = prepareLine(rt, 'inbox.suspended', SERVICE_ACTOR, refs, {
    address: inbox.address,
    reason,
    sent_7d,
    bounced_7d,
    complaints_7d,
  });
  const event = prepareEvent(
    rt,
    spaceId,
    'mail.inbox.suspended',
    { refs: { inbox_id: inboxId } },
    {
      inbox_id: inboxId,
      address: inbox.address,
      reason: suspensionText(reason, figures),
    },
  );
  const reply = await inboxLua.suspendInbox(
    rt.scripts,
    { inbox: keys.inbox(inboxId), events: keys.events, journal: keys.journal, journalIndex: keys.journalIndex },
    { nowIso: iso(rt.clock.now()), reason, ...lineArgs(line), event },
  );
  return reply.changed;
}

/** The operator's resumption (`mailbox admin resume-inbox`): only a suspended inbox. */
export async function resumeInbox(rt: Runtime, spaceId: string, inboxId: string): Promise<StoredInbox> {
  const inbox = await readInbox(rt, spaceId, inboxId);
  if (!inbox) throw new MailboxError('not_found');
  const keys = spaceKeys(spaceId);
  const line = prepareLine(
    rt,
    'inbox.resumed',
    SERVICE_ACTOR,
    { inbox_id: inboxId, domain: inbox.domain },
    { address: inbox.address },
  );
  await inboxLua.resumeInbox(
    rt.scripts,
    { inbox: keys.inbox(inboxId), journal: keys.journal, journalIndex: keys.journalIndex },
    { nowIso: iso(rt.clock.now()), ...lineArgs(line) },
  );
  return (await readInbox(rt, spaceId, inboxId))!;
}

/** Finds an inbox's space from its address, through the address index (the operator's CLI, SMTP routing). */
export async function spaceOfAddress(rt: Runtime, address: string): Promise<AddressClaim | null> {
  return (await readClaim<AddressClaim>(rt, globalKeys.address(address.trim().toLowerCase())))?.value ?? null;
}

export async function requestInboxReview(
  rt: Runtime,
  access: Access,
  inboxId: string,
  message: string | null,
): Promise<StoredInbox> {
  const inbox = await visibleInbox(rt, access, inboxId, { live: true });
  const keys = spaceKeys(access.space.id);
  const line = prepareLine(
    rt,
    'inbox.review_requested',
    actorOf(access),
    { inbox_id: inboxId, domain: inbox.domain },
    { address: inbox.address, message },
  );
  await inboxLua.requestReview(
    rt.scripts,
    { inbox: keys.inbox(inboxId), journal: keys.journal, journalIndex: keys.journalIndex },
    { nowIso: iso(rt.clock.now()), message: message ?? '', ...lineArgs(line) },
  );
  return (await readInbox(rt, access.space.id, inboxId))!;
}
