/**
 * Campaigns (docs/contract.md, Decisions 7 and 11): a message to every contact of an audience from some inboxes of
 * the space, then up to three follow-ups in its thread. The definition and status live in one hash;
 * each contact's progress in another (address -> state JSON, below); the feeder
 * (actors/campaign-feed.ts) writes the messages through the send path, every rule of send_email
 * included. lua/campaign/ holds the behaviours.
 */
import { iso } from '../src/clock.js';
import { MailboxError } from '../src/errors.js';
import type { CampaignView, FollowUp } from '../src/record-schemas.js';
import { globalKeys, shardOf, spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import type { Runtime } from '../src/runtime.js';
import { unresolvedField } from '../src/sending/placeholders.js';
import { parisDay } from '../src/texts.js';
import { contactView, eachContact } from './audience.js';
import { prepareEvent, type EventType } from './events.js';
import * as campaignLua from './bindings/campaign.generated.js';
import { lineArgs, prepareLine, type Actor } from './journal.js';
import { visibleInbox } from './inbox.js';
import { actorOf, type Access } from './space.js';
import type { ContactState } from './bindings/shapes.js';

export type { ContactState };

export type CampaignStatus = CampaignView['status'];

/** The campaign hash, as stored (strings). */
export interface StoredCampaign {
  id: string;
  name: string;
  audience_id: string;
  /** JSON array of inbox ids. */
  inbox_ids: string;
  subject: string;
  text: string;
  html: string;
  /** JSON array of {after_days, text}. */
  follow_ups: string;
  requires_approval: '0' | '1';
  /** ms, '' for none. */
  send_after: string;
  status: CampaignStatus;
  created_at: string;
  created_by: string;
  started_at?: string;
  started_by?: string;
  finished_at?: string;
  /** The audience rank up to which contacts were claimed. */
  cursor?: string;
}

/**
 * A contact replied in its campaign thread (the inbound store found the thread's campaign): its
 * follow-ups stop now, not at the feeder's next visit (lua/campaign/recordReply).
 */
export async function recordReply(
  rt: Runtime,
  spaceId: string,
  campaignId: string,
  email: string,
  threadId: string,
): Promise<boolean> {
  const keys = spaceKeys(spaceId);
  const reply = await campaignLua.recordReply(
    rt.scripts,
    { campaignContacts: keys.campaignContacts(campaignId), campaignFollowUps: keys.campaignFollowUps(campaignId) },
    { email, threadId },
  );
  return reply.stopped;
}

export function campaignView(c: StoredCampaign): CampaignView {
  return {
    id: c.id,
    name: c.name,
    audience_id: c.audience_id,
    inbox_ids: JSON.parse(c.inbox_ids) as string[],
    subject: c.subject,
    text: c.text,
    has_html: Boolean(c.html),
    follow_ups: JSON.parse(c.follow_ups) as FollowUp[],
    requires_approval: c.requires_approval === '1',
    send_after: c.send_after ? iso(Number(c.send_after)) : null,
    status: c.status,
    created_at: c.created_at,
    started_at: c.started_at || null,
    finished_at: c.finished_at || null,
  };
}

export async function readCampaign(rt: Runtime, spaceId: string, campaignId: string): Promise<StoredCampaign> {
  const fields = (await rt.redis.hgetall(spaceKeys(spaceId).campaign(campaignId))) as unknown as StoredCampaign;
  if (!fields.id) throw new MailboxError('not_found', null, { reason: "Cette campagne n'existe pas pour cette clé." });
  return fields;
}

export async function listCampaigns(rt: Runtime, spaceId: string): Promise<StoredCampaign[]> {
  const keys = spaceKeys(spaceId);
  const ids = await rt.redis.zrange(keys.campaigns, '0', '-1');
  const pipeline = rt.redis.pipeline();
  for (const id of ids) pipeline.hgetall(keys.campaign(id));
  return (await execAll<StoredCampaign>(pipeline)).filter((c) => c.id);
}

export interface CampaignDefinition {
  name: string;
  audience_id: string;
  inbox_ids: string[];
  subject: string;
  text: string;
  html: string | null;
  follow_ups: FollowUp[];
  requires_approval: boolean;
  send_after: number | null;
}

/**
 * A campaign's inboxes, checked as create_campaign wants them: each one the key may use, active, and
 * on a verified domain of the space (a common-domain inbox cannot write first: own_domain_required).
 */
export async function campaignInboxes(rt: Runtime, access: Access, inboxIds: readonly string[]): Promise<void> {
  const keys = spaceKeys(access.space.id);
  for (const inboxId of inboxIds) {
    const inbox = await visibleInbox(rt, access, inboxId, { live: true });
    if (inbox.status === 'suspended')
      throw new MailboxError('inbox_suspended', { inbox_id: inboxId, reason: inbox.status_reason || null });
    if (inbox.shared === '1') throw new MailboxError('own_domain_required', { inbox_id: inboxId });
    const domainStatus = await rt.redis.hget(keys.domain(inbox.domain), 'status');
    if (domainStatus === 'suspended') throw new MailboxError('domain_suspended', { inbox_id: inboxId });
    if (domainStatus !== 'verified') throw new MailboxError('domain_not_verified', { inbox_id: inboxId });
  }
}

/** create_campaign, once the tool checked the inboxes: every contact must fill every placeholder. */
export async function createCampaign(rt: Runtime, access: Access, def: CampaignDefinition): Promise<CampaignView> {
  const spaceId = access.space.id;
  const texts = [def.subject, def.text, def.html ?? '', ...def.follow_ups.map((f) => f.text)];
  let failure: { email: string; field: string } | null = null;
  await eachContact(rt, spaceId, def.audience_id, null, (email, raw) => {
    const field = unresolvedField(texts, contactView(email, raw));
    if (field !== null) failure = { email, field };
    return field === null;
  });
  if (failure) {
    const { email, field } = failure;
    throw new MailboxError('unresolved_placeholder', { placeholder: `{{${field}}}`, contact: email, field });
  }
  const keys = spaceKeys(spaceId);
  const id = rt.ids.next('campaign');
  const stored: StoredCampaign = {
    id,
    name: def.name,
    audience_id: def.audience_id,
    inbox_ids: JSON.stringify(def.inbox_ids),
    subject: def.subject,
    text: def.text,
    html: def.html ?? '',
    follow_ups: JSON.stringify(def.follow_ups),
    requires_approval: def.requires_approval ? '1' : '0',
    send_after: def.send_after === null ? '' : String(def.send_after),
    status: 'draft',
    created_at: iso(rt.clock.now()),
    created_by: access.key.id,
    cursor: '0',
  };
  const line = prepareLine(
    rt,
    'campaign.created',
    actorOf(access),
    { campaign_id: id, audience_id: def.audience_id },
    { name: def.name },
  );
  await campaignLua.createCampaign(
    rt.scripts,
    {
      audience: keys.audience(def.audience_id),
      campaigns: keys.campaigns,
      campaign: keys.campaign(id),
      journal: keys.journal,
      journalIndex: keys.journalIndex,
      space: keys.space,
    },
    { campaignId: id, ...lineArgs(line), fields: Object.entries(stored).flat() },
  );
  return campaignView(stored);
}

/** The journal line and event of a change of a campaign's status, by `actor`. */
export function statusChange(
  rt: Runtime,
  spaceId: string,
  campaign: StoredCampaign,
  actor: Actor,
  kind: 'started' | 'paused' | 'finished',
) {
  const line = prepareLine(
    rt,
    `campaign.${kind}`,
    actor,
    { campaign_id: campaign.id, audience_id: campaign.audience_id },
    { name: campaign.name },
  );
  const event = prepareEvent(
    rt,
    spaceId,
    `mail.campaign.${kind}` as EventType,
    { refs: { campaign_id: campaign.id } },
    {
      campaign_id: campaign.id,
      name: campaign.name,
      audience_id: campaign.audience_id,
    },
  );
  return { ...lineArgs(line), event };
}

/** Running campaigns are indexed in shards (by space) so that no slot holds them all. */
export const RUNNING_SHARDS = 16;

/** The shard of the running-campaign index a space's campaigns go in. */
export const runningCampaignsOf = (spaceId: string): string =>
  globalKeys.runningCampaigns(shardOf(spaceId, RUNNING_SHARDS));

/** start_campaign: the campaign is indexed for the feeder first (a claim the feeder drops when it is not running). */
export async function startCampaign(
  rt: Runtime,
  access: Access,
  campaignId: string,
): Promise<{ campaign: CampaignView; was: CampaignStatus }> {
  const spaceId = access.space.id;
  const campaign = await readCampaign(rt, spaceId, campaignId);
  // The feeder writes under this key: it must reach every inbox of the campaign.
  const own = access.key.inbox_ids;
  if (own && (JSON.parse(campaign.inbox_ids) as string[]).some((id) => !own.includes(id))) {
    throw new MailboxError('not_found', null, {
      reason: "Cette campagne écrit depuis des boîtes que cette clé n'atteint pas.",
    });
  }
  const keys = spaceKeys(spaceId);
  await rt.redis.sadd(runningCampaignsOf(spaceId), `${spaceId} ${campaignId}`);
  const reply = await campaignLua.startCampaign(
    rt.scripts,
    {
      campaign: keys.campaign(campaignId),
      audience: keys.audience(campaign.audience_id),
      events: keys.events,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    {
      nowIso: iso(rt.clock.now()),
      keyId: access.key.id,
      ...statusChange(rt, spaceId, campaign, actorOf(access), 'started'),
    },
  );
  return { campaign: campaignView(await readCampaign(rt, spaceId, campaignId)), was: reply.was };
}

/**
 * pause_campaign: the status first (the feeder creates nothing more), then each queued message of the
 * campaign leaves its inbox's queue until the campaign starts again (lua/campaign/holdMessage).
 */
export async function pauseCampaign(
  rt: Runtime,
  access: Access,
  campaignId: string,
): Promise<{ campaign: CampaignView; held: number }> {
  const spaceId = access.space.id;
  const campaign = await readCampaign(rt, spaceId, campaignId);
  const keys = spaceKeys(spaceId);
  await campaignLua.pauseCampaign(
    rt.scripts,
    {
      campaign: keys.campaign(campaignId),
      events: keys.events,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    statusChange(rt, spaceId, campaign, actorOf(access), 'paused'),
  );
  const held = await holdQueued(rt, spaceId, campaign);
  return { campaign: campaignView(await readCampaign(rt, spaceId, campaignId)), held };
}

/**
 * Takes each queued message of a paused campaign out of its inbox's queue until it starts again
 * (lua/campaign/holdMessage); answers how many. Run by the pause, and by a feeder whose visit wrote
 * while the pause came (its messages written after the pause's sweep).
 */
export async function holdQueued(
  rt: Runtime,
  spaceId: string,
  campaign: Pick<StoredCampaign, 'id' | 'inbox_ids'>,
): Promise<number> {
  const keys = spaceKeys(spaceId);
  const campaignId = campaign.id;
  let held = 0;
  for (const inboxId of JSON.parse(campaign.inbox_ids) as string[]) {
    const ids = await rt.redis.zrange(keys.inboxQueue(inboxId), '0', '-1');
    const pipeline = rt.redis.pipeline();
    for (const id of ids) pipeline.hmget(keys.message(id), 'campaign_id', 'slot');
    const fields = await execAll<[string | null, string | null]>(pipeline);
    for (let i = 0; i < ids.length; i++) {
      const [owner, slot] = fields[i]!;
      if (owner !== campaignId || !slot) continue;
      const reply = await campaignLua.holdMessage(
        rt.scripts,
        {
          message: keys.message(ids[i]!),
          campaign: keys.campaign(campaignId),
          held: keys.campaignHeld(campaignId),
          inboxQueue: keys.inboxQueue(inboxId),
          queue: keys.queue,
          inboxSlots: keys.inboxSlots(inboxId),
        },
        { messageId: ids[i]!, day: parisDay(Number(slot)), spacing: rt.config.spacingSeconds * 1000 },
      );
      if (reply.held) held++;
    }
  }
  return held;
}

/** Where the contact stands in each campaign of the space that reached it (get_contact). */
export async function contactCampaigns(rt: Runtime, spaceId: string, email: string) {
  const keys = spaceKeys(spaceId);
  const campaigns = await listCampaigns(rt, spaceId);
  const pipeline = rt.redis.pipeline();
  for (const c of campaigns) pipeline.hget(keys.campaignContacts(c.id), email);
  const states = await execAll<string | null>(pipeline);
  return campaigns.flatMap((c, i) => {
    const raw = states[i];
    if (!raw) return [];
    const state = JSON.parse(raw) as ContactState;
    return [
      {
        campaign_id: c.id,
        name: c.name,
        campaign_status: c.status,
        state: state.s,
        reason: state.r ?? null,
        step: state.k ?? 0,
        thread_id: state.t ?? null,
        inbox_id: state.i ?? null,
      },
    ];
  });
}
