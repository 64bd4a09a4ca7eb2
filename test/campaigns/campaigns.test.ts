/**
 * Campaigns (docs/contract.md, Decisions 7 and 11): create_campaign's refusals, start and pause (nothing leaves while
 * paused, held messages go back in line on resume), two feeders at once and a feeder dying mid-step
 * (no contact written twice, a take-over recorded under the inbox that made the message), removals,
 * later additions, get_contact's sheet, delete_audience while a campaign runs, a deleted inbox's
 * contacts stopped, permissions and other spaces' ids.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { CLAIM_LEASE_MS, feedCampaign } from '../../actors/campaign-feed.js';
import type { ContactState } from '../../actors/campaign.js';
import { transportFor } from '../../src/delivery/transports.js';
import { spaceKeys } from '../../src/redis/keys.js';
import type { Runtime } from '../../src/runtime.js';
import { deliverDue } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { sender, type Sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';

const clock = mondayMorning();
const svc = await startService({
  clock,
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, MAILBOX_DATA_DIR: mkdtempSync(join(tmpdir(), 'mbx-campaigns-')) },
});
const transport = transportFor(svc.rt);

const codeOf = (res: { body: { error?: { code: string } } }) => res.body.error?.code;

async function audienceOf(s: { apiKey: string }, count: number, prefix = 'p') {
  const { audience } = (await svc.call(s.apiKey, 'create_audience', { name: `Audience ${prefix}` })).body;
  const contacts = Array.from({ length: count }, (_, i) => ({
    email: `${prefix}${i}@destinataire.test`,
    name: `Contact ${i}`,
  }));
  if (count) await svc.call(s.apiKey, 'add_contacts', { audience_id: audience.id, contacts });
  return audience.id as string;
}

const campaignBody = (s: Sender, audienceId: string, extra: Record<string, unknown> = {}) => ({
  name: 'Essai',
  audience_id: audienceId,
  inbox_ids: [s.inboxId],
  subject: 'Bonjour {{name}}',
  text: 'Bonjour {{name}}, {{unsubscribe_url}}',
  ...extra,
});

async function started(s: Sender, audienceId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await svc.call(s.apiKey, 'create_campaign', campaignBody(s, audienceId, extra));
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  await svc.call(s.apiKey, 'start_campaign', { campaign_id: res.body.campaign.id });
  return res.body.campaign.id;
}

/** The campaign's messages per contact, read from the journal's lines (one `message.queued` per message made). */
async function messagesPerContact(s: Sender, campaignId: string): Promise<Map<string, number>> {
  const lines = (await svc.call(s.apiKey, 'list_events', { campaign_id: campaignId, limit: 200 })).body.events as {
    kind: string;
    contact: string;
  }[];
  const counts = new Map<string, number>();
  for (const line of lines)
    if (line.kind === 'message.queued') counts.set(line.contact, (counts.get(line.contact) ?? 0) + 1);
  return counts;
}

t.test('create_campaign: every refusal', async (t) => {
  const s = await sender(svc);
  const audienceId = await audienceOf(s, 3, 'r');
  const refused = async (body: Record<string, unknown>, code: string, key = s.apiKey) => {
    const res = await svc.call(key, 'create_campaign', { ...campaignBody(s, audienceId), ...body });
    t.equal(codeOf(res), code, `${JSON.stringify(body).slice(0, 80)}: ${code}`);
    return res.body.error;
  };
  await refused({ follow_ups: [1, 2, 3, 4].map(() => ({ after_days: 1, text: 'x' })) }, 'invalid_argument');
  await refused({ follow_ups: [{ after_days: 0, text: 'x' }] }, 'invalid_argument');
  await refused({ inbox_ids: [] }, 'invalid_argument');
  await refused({ subject: 'Lien {{unsubscribe_url}}' }, 'unresolved_placeholder');
  const unresolved = await refused({ text: 'Bonjour {{ville}}' }, 'unresolved_placeholder');
  t.match(
    unresolved.hint,
    { contact: 'r0@destinataire.test', field: 'ville' },
    'the first contact that fails and the field',
  );
  await refused({ text: `clé ${s.apiKey}` }, 'secret_in_message');
  await refused({ audience_id: svc.rt.ids.next('audience') }, 'not_found');
  await refused({ inbox_ids: [svc.rt.ids.next('inbox')] }, 'not_found');
  await refused({ send_after: 'demain' }, 'invalid_argument');

  const common = await svc.call(s.apiKey, 'create_inbox', {
    username: 'commune',
    domain: svc.rt.config.commonDomain,
    display_name: 'Commune',
  });
  await refused({ inbox_ids: [common.body.id] }, 'own_domain_required');
  const keys = spaceKeys(s.spaceId);
  await svc.rt.redis.hset(keys.inbox(s.inboxId), 'status', 'suspended', 'status_reason', 'trop de rebonds');
  await refused({}, 'inbox_suspended');
  await svc.rt.redis.hset(keys.inbox(s.inboxId), 'status', 'active');
  await svc.rt.redis.hset(keys.domain(s.domain), 'status', 'suspended');
  await refused({}, 'domain_suspended');
  await svc.rt.redis.hset(keys.domain(s.domain), 'status', 'pending');
  await refused({}, 'domain_not_verified');
  await svc.rt.redis.hset(keys.domain(s.domain), 'status', 'verified');

  const reader = await svc.key(s.apiKey, { name: 'lecteur', permissions: ['read'] });
  await refused({}, 'forbidden', reader.apiKey);
  const free = await svc.space({ plan: 'none' });
  const freeAudience = await audienceOf(free, 1, 'f');
  t.equal(
    codeOf(await svc.call(free.apiKey, 'create_campaign', { ...campaignBody(s, freeAudience) })),
    'payment_required',
  );
  const unverified = await svc.space({ verified: false });
  t.equal(
    codeOf(await svc.call(unverified.apiKey, 'create_campaign', campaignBody(s, audienceId))),
    'space_unverified',
  );

  const other = await sender(svc);
  t.equal(
    codeOf(await svc.call(other.apiKey, 'create_campaign', campaignBody(other, audienceId))),
    'not_found',
    "create_campaign: another space's audience",
  );
  t.equal(
    codeOf(await svc.call(other.apiKey, 'create_campaign', campaignBody(s, await audienceOf(other, 1, 'o')))),
    'not_found',
    "another space's inbox",
  );

  const ok = await svc.call(s.apiKey, 'create_campaign', {
    ...campaignBody(s, audienceId),
    follow_ups: [{ after_days: 2, text: 'Relance {{name}}' }],
    send_after: '2026-11-24T10:00',
  });
  t.equal(ok.status, 200, JSON.stringify(ok.body));
  t.match(ok.body.campaign, {
    status: 'draft',
    follow_ups: [{ after_days: 2 }],
    send_after: '2026-11-24T09:00:00.000Z',
    started_at: null,
  });
  t.same(
    (await svc.call(reader.apiKey, 'list_campaigns', {})).body.items.map((c: { id: string }) => c.id),
    [ok.body.campaign.id],
  );
  t.same((await svc.call(other.apiKey, 'list_campaigns', {})).body.items, []);
  t.equal(
    (await svc.call(reader.apiKey, 'list_campaigns', { status: 'draft' })).body.items.length,
    1,
    'filtered by status',
  );
  t.same((await svc.call(reader.apiKey, 'list_campaigns', { status: 'running' })).body.items, []);
  t.equal(codeOf(await svc.call(reader.apiKey, 'list_campaigns', { status: 'en cours' })), 'invalid_argument');
});

t.test('start, pause, status: permissions, states, other spaces', async (t) => {
  const s = await sender(svc);
  const audienceId = await audienceOf(s, 2, 's');
  const { campaign } = (await svc.call(s.apiKey, 'create_campaign', campaignBody(s, audienceId))).body;
  const agent = await svc.key(s.apiKey, { name: 'agent', permissions: ['send', 'read'] });
  t.equal(
    codeOf(await svc.call(agent.apiKey, 'start_campaign', { campaign_id: campaign.id })),
    'forbidden',
    'an agent does not launch its own mass mailing',
  );
  t.equal(
    codeOf(await svc.call(agent.apiKey, 'pause_campaign', { campaign_id: campaign.id })),
    'campaign_not_running',
    'a draft does not pause',
  );
  t.equal(
    codeOf(await svc.call(s.apiKey, 'start_campaign', { campaign_id: svc.rt.ids.next('campaign') })),
    'not_found',
  );
  const other = await svc.space();
  t.equal(
    codeOf(await svc.call(other.apiKey, 'start_campaign', { campaign_id: campaign.id })),
    'not_found',
    "start_campaign: another space's campaign",
  );
  t.equal(
    codeOf(await svc.call(other.apiKey, 'pause_campaign', { campaign_id: campaign.id })),
    'not_found',
    "pause_campaign: another space's campaign",
  );
  t.equal(
    codeOf(await svc.call(other.apiKey, 'campaign_status', { campaign_id: campaign.id })),
    'not_found',
    "campaign_status: another space's campaign",
  );
  t.equal(
    codeOf(await svc.call(other.apiKey, 'get_contact', { email: 's0@destinataire.test' })),
    'not_found',
    "get_contact: another space's contact",
  );

  const start = await svc.call(s.apiKey, 'start_campaign', { campaign_id: campaign.id });
  t.match(start.body, { was: 'draft', campaign: { status: 'running' } });
  t.match(
    (await svc.call(s.apiKey, 'start_campaign', { campaign_id: campaign.id })).body,
    { was: 'running' },
    'a running one is answered as it is',
  );
  t.equal(
    codeOf(await svc.call(s.apiKey, 'delete_audience', { audience_id: audienceId, confirm: true })),
    'audience_in_use',
  );
  t.match(
    (await svc.call(agent.apiKey, 'pause_campaign', { campaign_id: campaign.id })).body.campaign,
    { status: 'paused' },
    'send pauses',
  );
  t.equal(
    codeOf(await svc.call(s.apiKey, 'delete_audience', { audience_id: audienceId, confirm: true })),
    'audience_in_use',
    'paused still uses it',
  );

  const empty = await audienceOf(s, 0, 'vide');
  const done = await started(s, empty);
  t.equal(await feedCampaign(svc.rt, s.spaceId, done), 'finished', 'nothing to write: finished at the first visit');
  t.equal(codeOf(await svc.call(s.apiKey, 'start_campaign', { campaign_id: done })), 'campaign_not_startable');
  t.equal(
    (await svc.call(s.apiKey, 'delete_audience', { audience_id: empty, confirm: true })).status,
    200,
    'a finished campaign no longer holds its audience',
  );
  const kinds = (await svc.call(s.apiKey, 'list_events', { campaign_id: done })).body.events.map(
    (e: { kind: string }) => e.kind,
  );
  t.same(kinds, ['campaign.finished', 'campaign.started', 'campaign.created']);
  t.match((await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaign.id })).body.figures, {
    recipients: 2,
    waiting: 2,
    queued: 0,
  });
});

t.test('pause then start: nothing leaves while paused; held messages go back in line', async (t) => {
  const s = await sender(svc);
  const campaignId = await started(s, await audienceOf(s, 12, 'h'));
  await feedCampaign(svc.rt, s.spaceId, campaignId);
  const keys = spaceKeys(s.spaceId);
  t.equal(await svc.rt.redis.zcard(keys.inboxQueue(s.inboxId)), 5, "one day of the inbox's quota queued, no more");
  const [, firstSlot] = await svc.rt.redis.zrange(keys.inboxQueue(s.inboxId), '0', '0', 'WITHSCORES');
  const status = async () => (await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaignId })).body.figures;
  t.equal(
    (await status()).next_send_at,
    new Date(Number(firstSlot)).toISOString(),
    'the next departure: its earliest queued message',
  );
  const single = await svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to: 'seul@destinataire.test',
    subject: 'Seul',
    text: 'Bonjour',
  });
  t.equal(single.status, 200, 'a single send still fits');
  const paused = await svc.call(s.apiKey, 'pause_campaign', { campaign_id: campaignId });
  t.equal(paused.body.held, 5);
  t.equal((await status()).next_send_at, null, 'paused: no departure');
  t.same(
    await svc.rt.redis.zrange(keys.inboxQueue(s.inboxId), '0', '-1'),
    [single.body.message.id],
    'only the single send waits',
  );
  t.equal(await svc.rt.redis.hget(keys.inbox(s.inboxId), 'queued'), '6', 'held messages still count as queued');
  const heldId = (await svc.rt.redis.zrange(keys.campaignHeld(campaignId), '0', '0'))[0]!;
  t.equal(
    (await svc.call(s.apiKey, 'cancel_message', { message_id: heldId })).body.status,
    'cancelled',
    'a held message cancels',
  );
  t.equal(await svc.rt.redis.hget(keys.inbox(s.inboxId), 'queued'), '5', 'and leaves the count');
  const sentBefore = await sentCount(s);
  for (let hour = 0; hour < 48; hour++) {
    await feedCampaign(svc.rt, s.spaceId, campaignId);
    await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
    clock.set(clock.now() + 3600_000);
  }
  t.equal(await sentCount(s), sentBefore + 1, 'only the single send left while paused');
  t.equal((await messagesPerContact(s, campaignId)).size, 5, 'and nothing new was made');
  t.match((await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaignId })).body.figures, {
    queued: 4,
    cancelled: 1,
    waiting: 7,
  });

  await svc.call(s.apiKey, 'start_campaign', { campaign_id: campaignId });
  for (let round = 0; round < 400 && (await feedCampaign(svc.rt, s.spaceId, campaignId)) === 'running'; round++) {
    const next = await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
    clock.set(Math.max(clock.now() + 1, Math.min(next ?? Infinity, clock.now() + 3600_000)));
  }
  while ((await deliverDue(svc.rt, transport, s.spaceId, s.inboxId)) !== null) clock.set(clock.now() + 3600_000);
  const counts = await messagesPerContact(s, campaignId);
  t.equal(counts.size, 12, 'every contact written to after the resumption');
  t.ok(
    [...counts.values()].every((n) => n === 1),
    'once each: held messages left, none was made again',
  );
  t.match((await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaignId })).body, {
    campaign: { status: 'finished' },
    figures: { recipients: 12, waiting: 0, queued: 0, cancelled: 1 },
  });
  t.equal(await svc.rt.redis.hget(keys.inbox(s.inboxId), 'queued'), '0', "the inbox's count back to nothing");
});

t.test('a pause that comes while a feeder writes: what the visit writes after it is held too', async (t) => {
  const s = await sender(svc);
  const campaignId = await started(s, await audienceOf(s, 12, 'p'));
  let paused = false;
  // The pause lands just before the visit's first message is made: its own sweep finds nothing yet.
  const pausedMeanwhile: Runtime = {
    ...svc.rt,
    scripts: {
      run: async (name: string, ...rest: unknown[]) => {
        if (name === 'message/createOutbound' && !paused) {
          paused = true;
          t.equal((await svc.call(s.apiKey, 'pause_campaign', { campaign_id: campaignId })).body.held, 0);
        }
        return (svc.rt.scripts.run as (...a: unknown[]) => Promise<unknown>)(name, ...rest);
      },
    } as unknown as Runtime['scripts'],
  };
  t.equal(await feedCampaign(pausedMeanwhile, s.spaceId, campaignId), 'paused');
  const keys = spaceKeys(s.spaceId);
  t.equal(await svc.rt.redis.zcard(keys.inboxQueue(s.inboxId)), 0, 'nothing of the campaign waits to leave');
  t.equal(await svc.rt.redis.zcard(keys.campaignHeld(campaignId)), 5, "the visit's day of messages is held");
  for (let hour = 0; hour < 24; hour++) {
    t.equal(await deliverDue(svc.rt, transport, s.spaceId, s.inboxId), null);
    clock.set(clock.now() + 3600_000);
  }
  t.equal(await sentCount(s), 0, 'none left while paused');
});

async function sentCount(s: Sender): Promise<number> {
  const lines = (await svc.call(s.apiKey, 'list_events', { inbox_id: s.inboxId, limit: 200 })).body.events as {
    kind: string;
  }[];
  return lines.filter((l) => l.kind === 'message.sent').length;
}

/** A runtime whose scripts fail on `script`, as a feeder process dying right before that step would. */
const dyingAt = (rt: Runtime, script: string): Runtime => ({
  ...rt,
  scripts: {
    run: (name: string, ...rest: unknown[]) =>
      name === script
        ? Promise.reject(new Error('feeder died'))
        : (rt.scripts.run as (...a: unknown[]) => Promise<unknown>)(name, ...rest),
  } as unknown as Runtime['scripts'],
});

t.test(
  'two feeders at once, a feeder dying after the message and before recording it: no contact written twice',
  async (t) => {
    const s = await sender(svc);
    const second = (
      await svc.call(s.apiKey, 'create_inbox', { username: 'ventes2', domain: s.domain, display_name: 'Ventes' })
    ).body.id;
    const campaignId = await started(s, await audienceOf(s, 30, 'd'), { inbox_ids: [s.inboxId, second] });
    await Promise.all([
      feedCampaign(svc.rt, s.spaceId, campaignId),
      feedCampaign(svc.rt, s.spaceId, campaignId),
      feedCampaign(svc.rt, s.spaceId, campaignId),
    ]);
    let counts = await messagesPerContact(s, campaignId);
    t.equal(counts.size, 10, 'five a day in each of the two inboxes');
    t.ok(
      [...counts.values()].every((n) => n === 1),
      'three feeders at once: once each',
    );

    // The next day, a feeder dies after making each message, before recording it.
    clock.set(clock.now() + 24 * 3600_000);
    for (const inbox of [s.inboxId, second])
      while ((await deliverDue(svc.rt, transport, s.spaceId, inbox)) !== null) clock.set(clock.now() + 3600_000);
    await t.rejects(feedCampaign(dyingAt(svc.rt, 'campaign/recordContact'), s.spaceId, campaignId), /feeder died/);
    const keys = spaceKeys(s.spaceId);
    const claimed = await svc.rt.redis.zrange(keys.campaignClaims(campaignId), '0', '-1');
    t.equal(claimed.length, 5, "its claims stand (the first inbox's day: it died there)");
    t.equal(await feedCampaign(svc.rt, s.spaceId, campaignId), 'running');
    t.same(
      await svc.rt.redis.zrange(keys.campaignClaims(campaignId), '0', '-1'),
      claimed,
      'another feeder waits for the lease',
    );
    clock.set(clock.now() + CLAIM_LEASE_MS + 1);
    await feedCampaign(svc.rt, s.spaceId, campaignId);
    counts = await messagesPerContact(s, campaignId);
    t.ok(
      [...counts.values()].every((n) => n === 1),
      'taken over: the message made before the crash is recorded, not made again',
    );
    const state = JSON.parse(
      (await svc.rt.redis.hget(keys.campaignContacts(campaignId), claimed[0]!))!,
    ) as ContactState;
    t.match(state, { s: 'written', k: 0 });
    t.ok(counts.size >= 20, 'and the feed goes on');
  },
);

t.test(
  'a claim taken over after its first message was made from another inbox: recorded under that inbox',
  async (t) => {
    const s = await sender(svc);
    const second = (
      await svc.call(s.apiKey, 'create_inbox', { username: 'ventes2', domain: s.domain, display_name: 'Ventes' })
    ).body.id;
    const email = 'ailleurs@destinataire.test';
    // The first inbox wrote to the contact lately: the 30-day rule sends its first message from the second.
    t.equal(
      (await svc.call(s.apiKey, 'send_email', { inbox_id: s.inboxId, to: email, subject: 'Avant', text: 'Bonjour' }))
        .status,
      200,
    );
    const { audience } = (await svc.call(s.apiKey, 'create_audience', { name: 'Ailleurs' })).body;
    await svc.call(s.apiKey, 'add_contacts', { audience_id: audience.id, contacts: [{ email, name: 'Ailleurs' }] });
    const campaignId = await started(s, audience.id, { inbox_ids: [s.inboxId, second] });
    const keys = spaceKeys(s.spaceId);
    const stateOf = async () =>
      JSON.parse((await svc.rt.redis.hget(keys.campaignContacts(campaignId), email))!) as ContactState;
    await t.rejects(feedCampaign(dyingAt(svc.rt, 'campaign/recordContact'), s.spaceId, campaignId), /feeder died/);
    t.match(
      await stateOf(),
      { s: 'claimed', k: 0, i: s.inboxId },
      'claimed for the first inbox, made from the second, not recorded',
    );
    clock.set(clock.now() + CLAIM_LEASE_MS + 1);
    await feedCampaign(svc.rt, s.spaceId, campaignId);
    const state = await stateOf();
    const made = (await svc.rt.redis.hmget(keys.message(state.m!), 'inbox_id', 'thread_id')) as [string, string];
    t.same(made, [second, state.t], 'the message answered is the one made from the second inbox');
    t.match(
      state,
      { s: 'written', k: 0, i: second },
      'recorded under the inbox that made it: its follow-ups leave from there',
    );
    t.same([...(await messagesPerContact(s, campaignId)).values()], [1], 'made once');
  },
);

t.test(
  'a suspended inbox leaves its share to the others; a key that does not reach every inbox does not start',
  async (t) => {
    const s = await sender(svc);
    const second = (
      await svc.call(s.apiKey, 'create_inbox', { username: 'ventes2', domain: s.domain, display_name: 'Ventes' })
    ).body.id;
    const audienceId = await audienceOf(s, 20, 'x');
    const { campaign } = (
      await svc.call(s.apiKey, 'create_campaign', campaignBody(s, audienceId, { inbox_ids: [s.inboxId, second] }))
    ).body;
    const restricted = await svc.key(s.apiKey, { name: 'une boîte', permissions: ['approve'], inbox_ids: [s.inboxId] });
    t.equal(codeOf(await svc.call(restricted.apiKey, 'start_campaign', { campaign_id: campaign.id })), 'not_found');
    await svc.call(s.apiKey, 'start_campaign', { campaign_id: campaign.id });
    await svc.rt.redis.hset(spaceKeys(s.spaceId).inbox(second), 'status', 'suspended');
    await feedCampaign(svc.rt, s.spaceId, campaign.id);
    t.match((await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaign.id })).body.figures, {
      queued: 5,
      waiting: 15,
      per_inbox: [{ inbox_id: s.inboxId, queued: 5 }],
    });
    await svc.rt.redis.hset(spaceKeys(s.spaceId).inbox(second), 'status', 'active');
    await feedCampaign(svc.rt, s.spaceId, campaign.id);
    t.match(
      (await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaign.id })).body.figures,
      { queued: 10, waiting: 10 },
      'back in service, it takes its share',
    );
  },
);

t.test('removals stop a contact not yet written to; later additions join; the contact sheet', async (t) => {
  const s = await sender(svc);
  const audienceId = await audienceOf(s, 7, 'm');
  const campaignId = await started(s, audienceId);
  await feedCampaign(svc.rt, s.spaceId, campaignId);
  await svc.call(s.apiKey, 'remove_contacts', { audience_id: audienceId, emails: ['m5@destinataire.test'] });
  await svc.call(s.apiKey, 'add_contacts', {
    audience_id: audienceId,
    contacts: [{ email: 'tard@destinataire.test', name: 'Tardif' }],
  });
  await svc.call(s.apiKey, 'add_suppression', { value: 'm6@destinataire.test' });
  for (let round = 0; round < 300 && (await feedCampaign(svc.rt, s.spaceId, campaignId)) === 'running'; round++) {
    const next = await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
    clock.set(Math.max(clock.now() + 1, Math.min(next ?? Infinity, clock.now() + 3600_000)));
  }
  const counts = await messagesPerContact(s, campaignId);
  t.notOk(counts.has('m5@destinataire.test'), 'removed before its turn: not written to');
  t.ok(counts.has('tard@destinataire.test'), 'added while running: written to');
  const figures = (await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaignId })).body.figures;
  t.match(figures, { skipped: { suppressed: 1 }, waiting: 0 });
  t.equal(figures.skipped.removed, 0, 'a removal before the claim is no recipient at all');

  const sheet = await svc.call(s.apiKey, 'get_contact', { email: 'M0@destinataire.test' });
  t.equal(sheet.status, 200, JSON.stringify(sheet.body));
  t.match(sheet.body, {
    contact: { email: 'm0@destinataire.test', name: 'Contact 0' },
    audiences: [{ id: audienceId }],
    campaigns: [{ campaign_id: campaignId, state: 'written', step: 0 }],
    suppression: null,
    dead_address: false,
  });
  t.equal(sheet.body.threads.length, 1);
  t.equal(sheet.body.threads[0].campaign_id, campaignId, 'the thread carries the campaign');
  t.match((await svc.call(s.apiKey, 'get_contact', { email: 'm6@destinataire.test' })).body, {
    suppression: { reason: 'manual' },
    campaigns: [{ state: 'skipped', reason: 'suppressed' }],
  });
  t.equal(codeOf(await svc.call(s.apiKey, 'get_contact', { email: 'inconnu@destinataire.test' })), 'not_found');
  t.equal(codeOf(await svc.call(s.apiKey, 'get_contact', { email: 'pas une adresse' })), 'invalid_argument');
  const byContact = (await svc.call(s.apiKey, 'list_events', { contact: 'm0@destinataire.test' })).body.events;
  t.ok(
    byContact.some(
      (e: { kind: string; campaign_id?: string }) => e.kind === 'message.queued' && e.campaign_id === campaignId,
    ),
    'list_events by contact names the campaign',
  );
});

t.test(
  'a deleted inbox: its contacts get no more follow-ups and the campaign finishes; a suspended one keeps them waiting',
  async (t) => {
    const s = await sender(svc);
    const audienceId = await audienceOf(s, 3, 'sup');
    const campaignId = await started(s, audienceId, { follow_ups: [{ after_days: 1, text: 'Relance {{name}}' }] });
    const keys = spaceKeys(s.spaceId);
    const states = async () =>
      Object.values(await svc.rt.redis.hgetall(keys.campaignContacts(campaignId))).map(
        (json) => JSON.parse(json) as ContactState,
      );
    const statuses = async () =>
      Promise.all((await states()).map(async (state) => svc.rt.redis.hget(keys.message(state.m!), 'status')));
    t.equal(await feedCampaign(svc.rt, s.spaceId, campaignId), 'running');
    t.equal((await states()).length, 3, 'every first message written at the first visit');
    while ((await deliverDue(svc.rt, transport, s.spaceId, s.inboxId)) !== null) clock.set(clock.now() + 3600_000);
    t.same(await statuses(), ['sent', 'sent', 'sent'], 'the first messages left');

    // Suspended past the follow-ups' day: they wait, the campaign runs on.
    await svc.rt.redis.hset(keys.inbox(s.inboxId), 'status', 'suspended', 'status_reason', 'trop de rebonds');
    clock.set(clock.now() + 7 * 24 * 3600_000);
    for (let round = 0; round < 5; round++) {
      t.equal(
        await feedCampaign(svc.rt, s.spaceId, campaignId),
        'running',
        'a suspended inbox keeps its contacts waiting',
      );
      clock.set(clock.now() + 3600_000);
    }
    t.ok(
      (await states()).every((state) => state.s === 'written' && state.k === 0),
      'no follow-up made, none stopped',
    );
    t.equal(await svc.rt.redis.zcard(keys.campaignFollowUps(campaignId)), 3, 'each follow-up due again later');

    await svc.rt.redis.hset(keys.inbox(s.inboxId), 'status', 'active');
    t.equal((await svc.call(s.apiKey, 'delete_inbox', { inbox_id: s.inboxId, confirm: true })).status, 200);
    let status = 'running';
    for (let round = 0; round < 10 && status === 'running'; round++) {
      status = await feedCampaign(svc.rt, s.spaceId, campaignId);
      clock.set(clock.now() + 3600_000);
    }
    t.equal(status, 'finished', 'the campaign finishes');
    t.same(
      (await states()).map((state) => [state.s, state.r, state.k]),
      Array(3).fill(['stopped', 'inbox_deleted', 0]),
      'its contacts stop: inbox_deleted',
    );
    t.same([...(await messagesPerContact(s, campaignId)).values()], [1, 1, 1], 'no follow-up made');
    t.equal(
      (await svc.call(s.apiKey, 'delete_audience', { audience_id: audienceId, confirm: true })).status,
      200,
      'its audience can be deleted',
    );
  },
);
