/**
 * The campaign engine: feeds a running campaign's inboxes as they have room. Each contact becomes a
 * first message through the send path (actors/message.ts: every rule of send_email), then its
 * follow-ups as replies in its thread after Paris working days, until it replies, unsubscribes,
 * complains, bounces or its inbox is deleted (a follow-up already queued when it replies is cancelled
 * at its departure: actors/delivery.ts). Any front end or worker may run it, several at once: a
 * contact's step is claimed atomically (lua/campaign/claim*), written with an idempotency key of the
 * campaign, contact and step (a feeder that dies after the message is made and before recording it is
 * answered that message when its claim is taken over), then recorded once.
 */
import { iso } from '../src/clock.js';
import { MailboxError } from '../src/errors.js';
import type { ContactView } from '../src/record-schemas.js';
import { globalKeys, spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { fillMessage, unresolvedField, type FillFault, type MessageTexts } from '../src/sending/placeholders.js';
import { afterWorkingDays } from '../src/sending/window.js';
import { replySubject, type Reason } from '../src/texts.js';
import { sha256Hex } from '../src/secrets.js';
import { wakeDeparture } from './due-index.js';
import { contactView } from './audience.js';
import * as campaignLua from './bindings/campaign.generated.js';
import {
  holdQueued,
  readCampaign,
  RUNNING_SHARDS,
  statusChange,
  type ContactState,
  type StoredCampaign,
} from './campaign.js';
import { deadAddress } from './dead-addresses.js';
import { SERVICE_ACTOR } from './journal.js';
import { createOutbound, departurePlan, sendingFacts } from './message.js';
import { readInbox, readMessage, readThread, warmupOf, type StoredThread } from './stored-records.js';
import { accessOfKey, type Access } from './space.js';
import type { SuppressionReason } from './suppression.js';

/** A claim older than this belongs to a feeder that died: another takes it over. */
export const CLAIM_LEASE_MS = 5 * 60_000;
/** Most follow-ups or taken-over claims one visit handles. */
const BATCH = 200;
/** A follow-up that could not be written now (quota, loop guard, a message not yet gone) is looked at again this much later. */
const RETRY_MS = 3600_000;

/** Refusals for which a first message tries the campaign's next inbox. */
const OTHER_INBOX = new Set([
  'duplicate_recipient',
  'not_found',
  'inbox_suspended',
  'domain_not_verified',
  'domain_suspended',
  'own_domain_required',
  'queue_full',
]);
/** What a suppression's reason makes of a contact the campaign already wrote to. */
const STOP_REASONS: Record<SuppressionReason, Reason> = {
  unsubscribe: 'unsubscribed',
  complaint: 'complained',
  bounce: 'bounced',
  manual: 'suppressed',
};
/** The statuses of a contact's last message that stop its follow-ups: the message never reached it. */
const LAST_STATUS_STOPS = ['bounced', 'failed', 'rejected', 'cancelled'] as const satisfies readonly Reason[];

interface Feed {
  rt: Runtime;
  access: Access;
  campaign: StoredCampaign;
  inboxIds: string[];
  followUps: { after_days: number; text: string }[];
}

/**
 * Step `step` of a contact, its values in place (placeholders/fillMessage), or why the contact cannot
 * get it (its stop reason): the first message has the campaign's subject, text and html, a follow-up
 * its text only.
 */
function messageOf(feed: Feed, contact: ContactView, step: number): MessageTexts | { fault: FillFault } {
  const { campaign } = feed;
  if (step > 0) return fillMessage({ subject: null, text: feed.followUps[step - 1]!.text, html: null }, contact);
  return fillMessage({ subject: campaign.subject, text: campaign.text, html: campaign.html || null }, contact);
}

/** Makes step `step` of a contact from an inbox: the first message (no thread) or a follow-up in `thread`. */
async function write(
  feed: Feed,
  inboxId: string,
  contact: ContactView,
  step: number,
  thread: StoredThread | null,
  message: MessageTexts,
) {
  const { rt, access, campaign } = feed;
  const idempotencyKey = `campaign ${campaign.id} ${contact.email} ${step}`;
  const facts = await sendingFacts(rt, access, inboxId, [contact.email]);
  return createOutbound(
    rt,
    access,
    {
      inbox: facts.inbox,
      thread,
      to: contact.email,
      to_name: contact.name,
      cc: [],
      bcc: [],
      subject: thread ? replySubject(thread.subject) : message.subject!,
      text: message.text,
      html: message.html,
      reply_to: null,
      metadata: null,
      requires_approval: campaign.requires_approval === '1',
      test: false,
      send_after: campaign.send_after ? Number(campaign.send_after) : null,
      idempotency_key: idempotencyKey,
      content_hash: sha256Hex(idempotencyKey),
      dry_run: false,
      attachments: [],
      campaign_id: campaign.id,
    },
    facts,
  );
}

/** Records a claimed step's outcome (lua/campaign/recordContact): a state, or `release`. */
async function record(
  feed: Feed,
  email: string,
  step: number,
  outcome: ContactState | 'release',
  nextAt: number | null,
): Promise<void> {
  const keys = spaceKeys(feed.access.space.id);
  const id = feed.campaign.id;
  await campaignLua.recordContact(
    feed.rt.scripts,
    {
      campaignContacts: keys.campaignContacts(id),
      campaignClaims: keys.campaignClaims(id),
      campaignFollowUps: keys.campaignFollowUps(id),
      campaignPending: keys.campaignPending(id),
      audienceMembers: keys.audienceMembers(feed.campaign.audience_id),
      campaign: keys.campaign(id),
    },
    {
      email,
      step,
      state: outcome === 'release' ? 'release' : JSON.stringify(outcome),
      nextAt: nextAt === null ? '' : nextAt,
    },
  );
}

/** When step `step + 1` is due after a message leaving at `leavesAt`, or null after the last step. */
const nextDue = (feed: Feed, step: number, leavesAt: number): number | null =>
  step < feed.followUps.length ? afterWorkingDays(leavesAt, feed.followUps[step]!.after_days) : null;

async function readContact(feed: Feed, email: string): Promise<ContactView> {
  return contactView(email, await feed.rt.redis.hget(spaceKeys(feed.access.space.id).contacts, email));
}

/** The first message of a claimed contact: its inbox, then the campaign's others when one refuses it for itself. */
async function writeFirst(feed: Feed, email: string, claimedInbox: string): Promise<void> {
  const { rt } = feed;
  const keys = spaceKeys(feed.access.space.id);
  if ((await rt.redis.zscore(keys.audienceMembers(feed.campaign.audience_id), email)) === null) {
    return record(feed, email, 0, { s: 'skipped', r: 'removed' }, null);
  }
  const contact = await readContact(feed, email);
  const texts = [feed.campaign.subject, feed.campaign.text, feed.campaign.html, ...feed.followUps.map((f) => f.text)];
  if (unresolvedField(texts, contact) !== null)
    return record(feed, email, 0, { s: 'skipped', r: 'unresolved_placeholder' }, null);
  const message = messageOf(feed, contact, 0);
  if ('fault' in message) return record(feed, email, 0, { s: 'skipped', r: message.fault }, null);
  let lastRefusal = 'duplicate_recipient';
  for (const inboxId of [claimedInbox, ...feed.inboxIds.filter((id) => id !== claimedInbox)]) {
    try {
      const sent = await write(feed, inboxId, contact, 0, null, message);
      const leavesAt = sent.estimated_send_at ? Date.parse(sent.estimated_send_at) : rt.clock.now();
      // The message answered, not the inbox tried: a claim taken over is answered (replayed) the message
      // its dead feeder made, maybe from another inbox of the campaign; its follow-ups leave from there.
      const made = sent.message!;
      return record(
        feed,
        email,
        0,
        { s: 'written', k: 0, i: made.inbox_id, t: made.thread_id, m: made.id },
        nextDue(feed, 0, leavesAt),
      );
    } catch (error) {
      if (!(error instanceof MailboxError)) throw error;
      if (error.code === 'recipient_suppressed') {
        return record(
          feed,
          email,
          0,
          { s: 'skipped', r: error.hint?.reason === 'dead_address' ? 'dead_address' : 'suppressed' },
          null,
        );
      }
      if (error.code === 'recipient_not_allowed') return record(feed, email, 0, { s: 'skipped', r: 'filtered' }, null);
      if (!OTHER_INBOX.has(error.code)) return record(feed, email, 0, 'release', null);
      lastRefusal = error.code;
    }
  }
  // Every inbox refused it: for itself (the 30-day rule) it is skipped; a passing refusal hands it back.
  return record(
    feed,
    email,
    0,
    lastRefusal === 'duplicate_recipient' ? { s: 'skipped', r: 'duplicate' } : 'release',
    null,
  );
}

/** Why a contact gets no more follow-ups, or null: a reply, a block, a dead address, a message that did not leave. */
async function stopReason(feed: Feed, email: string, state: ContactState, lastStatus: string): Promise<Reason | null> {
  const keys = spaceKeys(feed.access.space.id);
  const [wrote, byAddress, byDomain, dead] = await Promise.all([
    readThread(feed.rt, feed.access.space.id, state.t!).then((thread) => thread?.correspondent_wrote),
    feed.rt.redis.hget(keys.suppressions, email),
    feed.rt.redis.hget(keys.suppressions, `@${email.split('@')[1]}`),
    deadAddress(feed.rt, email),
  ]);
  if (wrote === '1') return 'replied';
  const block = byAddress ?? byDomain;
  if (block) return STOP_REASONS[(JSON.parse(block) as { reason: SuppressionReason }).reason] ?? 'suppressed';
  if (dead) return 'bounced';
  return LAST_STATUS_STOPS.find((status) => status === lastStatus) ?? null;
}

/** Whether a contact's inbox is gone for good: deleted (its fields stay, status `deleted`) or erased. */
async function inboxDeleted(feed: Feed, inboxId: string): Promise<boolean> {
  const inbox = await readInbox(feed.rt, feed.access.space.id, inboxId);
  return !inbox || inbox.status === 'deleted';
}

/** Follow-up `state.k` of a contact, once the previous message left and its working days passed. */
async function writeFollowUp(feed: Feed, email: string, state: ContactState): Promise<void> {
  const { rt } = feed;
  const step = state.k!;
  const now = rt.clock.now();
  const stopped = (reason: Reason) =>
    record(feed, email, step, { s: 'stopped', k: step - 1, i: state.i, t: state.t, m: state.m, r: reason }, null);
  const previous = await readMessage(rt, feed.access.space.id, state.m!);
  const stop = await stopReason(feed, email, state, previous?.status ?? 'cancelled');
  if (stop) return stopped(stop);
  const left = previous!.sent_at ? Date.parse(previous!.sent_at) : null;
  const due = afterWorkingDays(left ?? (Number(previous!.slot) || now), feed.followUps[step - 1]!.after_days);
  if (left === null || due > now)
    return record(feed, email, step, 'release', Math.max(due, now + (left === null ? RETRY_MS : 0)));
  const [thread, contact] = await Promise.all([
    readThread(rt, feed.access.space.id, state.t!),
    readContact(feed, email),
  ]);
  // Its fields may have changed since its first message (added again to an audience with others).
  if (unresolvedField([feed.followUps[step - 1]!.text], contact) !== null) return stopped('unresolved_placeholder');
  const message = messageOf(feed, contact, step);
  if ('fault' in message) return stopped(message.fault);
  try {
    const sent = await write(feed, state.i!, contact, step, thread, message);
    const leavesAt = sent.estimated_send_at ? Date.parse(sent.estimated_send_at) : now;
    return record(
      feed,
      email,
      step,
      { s: 'written', k: step, i: state.i, t: state.t, m: sent.message!.id },
      nextDue(feed, step, leavesAt),
    );
  } catch (error) {
    if (!(error instanceof MailboxError)) throw error;
    if (error.code === 'recipient_suppressed') return stopped('suppressed');
    // Its inbox was deleted: no follow-up can ever leave from it (a suspended one waits, as other passing refusals).
    if (error.code === 'not_found' && (await inboxDeleted(feed, state.i!))) return stopped('inbox_deleted');
    return record(feed, email, step, 'release', now + RETRY_MS);
  }
}

const writeStep = (feed: Feed, email: string, state: ContactState): Promise<void> =>
  state.k === 0 ? writeFirst(feed, email, state.i!) : writeFollowUp(feed, email, state);

/**
 * Claims and writes first messages for each active inbox, as many as it has room for (its warm-up quota
 * for `campaignQueueDays`, judged atomically by lua/campaign/claimContacts). Answers whether the
 * audience is exhausted.
 */
async function feedFirsts(feed: Feed): Promise<boolean> {
  const { rt, access, campaign } = feed;
  const keys = spaceKeys(access.space.id);
  const now = rt.clock.now();
  let exhausted = true;
  for (const inboxId of feed.inboxIds) {
    const inbox = await readInbox(rt, access.space.id, inboxId);
    // A suspended or deleted inbox leaves its share to the others.
    if (!inbox || inbox.status !== 'active') continue;
    const target = warmupOf(rt.config, access.space.plan, inbox, now).step * rt.config.campaignQueueDays;
    const reply = await campaignLua.claimContacts(
      rt.scripts,
      {
        campaign: keys.campaign(campaign.id),
        audienceMembers: keys.audienceMembers(campaign.audience_id),
        campaignContacts: keys.campaignContacts(campaign.id),
        campaignClaims: keys.campaignClaims(campaign.id),
        campaignPending: keys.campaignPending(campaign.id),
        inbox: keys.inbox(inboxId),
      },
      { now, inboxId, target },
    );
    for (const email of listOf(reply.claims)) await writeFirst(feed, email, inboxId);
    exhausted = reply.exhausted;
  }
  return exhausted;
}

/** A resumed campaign's held messages go back in their inboxes' queues, at new slots. */
async function requeueHeld(feed: Feed): Promise<void> {
  const { rt, access, campaign } = feed;
  const keys = spaceKeys(access.space.id);
  for (const messageId of await rt.redis.zrange(keys.campaignHeld(campaign.id), '0', '-1')) {
    const message = await readMessage(rt, access.space.id, messageId);
    const inbox = message && (await readInbox(rt, access.space.id, message.inbox_id));
    if (!message || !inbox) {
      await rt.redis.zrem(keys.campaignHeld(campaign.id), messageId);
      continue;
    }
    const plan = departurePlan(
      rt,
      access.space.plan,
      inbox,
      Math.max(rt.clock.now(), Number(campaign.send_after || 0)),
      false,
    );
    const reply = await campaignLua.requeueHeld(
      rt.scripts,
      {
        message: keys.message(messageId),
        campaign: keys.campaign(campaign.id),
        held: keys.campaignHeld(campaign.id),
        inboxQueue: keys.inboxQueue(inbox.id),
        queue: keys.queue,
        inboxSlots: keys.inboxSlots(inbox.id),
      },
      { messageId, earliest: plan.earliest, spacing: plan.spacing_ms, intervals: plan.intervals },
    );
    if (reply.slot !== null && reply.wake) await wakeDeparture(rt, access.space.id, inbox.id, reply.slot);
  }
}

/**
 * One visit of a campaign: held messages back in line, claims of dead feeders taken over, due
 * follow-ups, then new contacts as the inboxes have room; finished once nothing is left. Answers the
 * campaign's status after the visit (the feeder forgets a campaign that no longer runs).
 */
export async function feedCampaign(rt: Runtime, spaceId: string, campaignId: string): Promise<string> {
  const campaign = await readCampaign(rt, spaceId, campaignId).catch(() => null);
  if (!campaign || campaign.status !== 'running') return campaign?.status ?? 'gone';
  const access = await accessOfKey(rt, spaceId, campaign.started_by!);
  // The key that started it was revoked: nothing leaves under it until another key starts it again.
  if (!access) return campaign.status;
  const feed: Feed = {
    rt,
    access,
    campaign,
    inboxIds: JSON.parse(campaign.inbox_ids) as string[],
    followUps: JSON.parse(campaign.follow_ups) as Feed['followUps'],
  };
  const keys = spaceKeys(spaceId);
  const now = rt.clock.now();
  await requeueHeld(feed);
  const stale = await campaignLua.reclaimStale(
    rt.scripts,
    { campaignContacts: keys.campaignContacts(campaignId), campaignClaims: keys.campaignClaims(campaignId) },
    { now, staleBefore: now - CLAIM_LEASE_MS, most: BATCH },
  );
  const due = await campaignLua.claimFollowUps(
    rt.scripts,
    {
      campaign: keys.campaign(campaignId),
      campaignContacts: keys.campaignContacts(campaignId),
      campaignFollowUps: keys.campaignFollowUps(campaignId),
      campaignClaims: keys.campaignClaims(campaignId),
    },
    { now, most: BATCH },
  );
  for (const { email, state } of [...listOf(stale.claims), ...listOf(due.claims)]) await writeStep(feed, email, state);
  const exhausted = await feedFirsts(feed);
  // Paused while this visit wrote: its messages made after the pause's own sweep are held as well.
  if ((await rt.redis.hget(keys.campaign(campaignId), 'status')) === 'paused') {
    await holdQueued(rt, spaceId, campaign);
    return 'paused';
  }
  if (!exhausted) return 'running';
  const finished = await campaignLua.finishCampaign(
    rt.scripts,
    {
      campaign: keys.campaign(campaignId),
      audience: keys.audience(campaign.audience_id),
      audienceMembers: keys.audienceMembers(campaign.audience_id),
      campaignClaims: keys.campaignClaims(campaignId),
      campaignPending: keys.campaignPending(campaignId),
      campaignFollowUps: keys.campaignFollowUps(campaignId),
      events: keys.events,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    { nowIso: iso(now), ...statusChange(rt, spaceId, campaign, SERVICE_ACTOR, 'finished') },
  );
  return finished.finished ? 'finished' : 'running';
}

/** An empty Lua list comes back as {} (cjson cannot tell an empty array from an empty object). */
const listOf = <T>(value: T[] | Record<string, never>): T[] => (Array.isArray(value) ? value : []);

/** Statuses a campaign never leaves (or an erased one): the feeder forgets it. A paused one stays, cheap to visit, so a start racing the feeder is never lost. */
const OVER = new Set(['finished', 'cancelled', 'gone']);

/** Visits every running campaign of every space once, shard by shard; forgets those that are over. */
export async function feedRunning(rt: Runtime): Promise<void> {
  for (let shard = 0; shard < RUNNING_SHARDS; shard++) {
    const key = globalKeys.runningCampaigns(shard);
    for (const entry of await rt.redis.smembers(key)) {
      const [spaceId, campaignId] = entry.split(' ') as [string, string];
      const status = await feedCampaign(rt, spaceId, campaignId).catch((error: Error) => {
        rt.log.error('campaign feed failed', { space_id: spaceId, campaign_id: campaignId, error: error.message });
        return 'running';
      });
      if (OVER.has(status)) await rt.redis.srem(key, entry);
    }
  }
}
