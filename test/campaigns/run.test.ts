/**
 * A whole campaign on an injected clock: 300 contacts, two follow-ups, three
 * warming inboxes. Each day's departures keep each inbox's warm-up quota, window and spacing; a reply
 * stops that contact's follow-ups, an auto-reply does not; an unsubscription stops the contact; the
 * follow-ups leave after their Paris working days; campaign_status counts what the messages say. A
 * reply that comes while a follow-up waits in the queue cancels that follow-up.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import t from 'tap';
import { feedCampaign } from '../../actors/campaign-feed.js';
import type { ContactState } from '../../actors/campaign.js';
import type { Runtime } from '../../src/runtime.js';
import { unsubscribeRecipient } from '../../actors/suppression.js';
import { transportFor } from '../../src/delivery/transports.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { directionOf, readMessage, threadIdsIn } from '../../actors/stored-records.js';
import { afterWorkingDays } from '../../src/sending/window.js';
import { warmup } from '../../src/sending/warmup.js';
import { deliverDue } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startInbound } from '../helpers/inbound.js';
import { sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { streamEnvelopes } from '../helpers/events.js';

// Some 900 departures over six weeks of injected time.
t.setTimeout(300_000);

const clock = mondayMorning();
const svc = await startService({
  clock,
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, MAILBOX_DATA_DIR: mkdtempSync(join(tmpdir(), 'mbx-campaign-')) },
});
const inbound = await startInbound(svc);

t.test('300 contacts, two follow-ups, three warming inboxes: to completion, by the rules', async (t) => {
  const s = await sender(svc);
  const inboxIds = [s.inboxId];
  for (const username of ['ventes2', 'ventes3']) {
    inboxIds.push(
      (await svc.call(s.apiKey, 'create_inbox', { username, domain: s.domain, display_name: 'Ventes' })).body.id,
    );
  }
  const { audience } = (await svc.call(s.apiKey, 'create_audience', { name: 'Trois cents' })).body;
  const emails = Array.from({ length: 300 }, (_, i) => `c${String(i).padStart(3, '0')}@destinataire.test`);
  const added = await svc.call(s.apiKey, 'add_contacts', {
    audience_id: audience.id,
    contacts: emails.map((email, i) => ({ email, name: `Contact ${i}` })),
  });
  t.equal(added.body.added, 300);
  const created = await svc.call(s.apiKey, 'create_campaign', {
    name: 'Automne',
    audience_id: audience.id,
    inbox_ids: inboxIds,
    subject: 'Bonjour {{name}}',
    text: 'Bonjour {{name}},\nune proposition. {{unsubscribe_url}}',
    follow_ups: [
      { after_days: 2, text: 'Je me permets de vous relancer, {{name}}.' },
      { after_days: 3, text: 'Dernière relance.' },
    ],
  });
  t.equal(created.status, 200, JSON.stringify(created.body));
  const campaignId = created.body.campaign.id;
  t.equal((await svc.call(s.apiKey, 'start_campaign', { campaign_id: campaignId })).body.campaign.status, 'running');

  const keys = spaceKeys(s.spaceId);
  const stateOf = async (email: string) =>
    JSON.parse((await svc.rt.redis.hget(keys.campaignContacts(campaignId), email)) ?? '{}') as ContactState;
  const sentAt = async (messageId: string) => svc.rt.redis.hget(keys.message(messageId), 'sent_at');
  const [replier, autoReplier, leaver] = ['c010@destinataire.test', 'c011@destinataire.test', 'c020@destinataire.test'];
  const pendingEvents = new Set([replier, autoReplier, leaver]);
  const transport = transportFor(svc.rt);
  const end = Date.parse('2027-02-01T00:00:00Z');
  let status = 'running';
  while (clock.now() < end) {
    status = await feedCampaign(svc.rt, s.spaceId, campaignId);
    const nexts: number[] = [];
    for (const inboxId of inboxIds) {
      const next = await deliverDue(svc.rt, transport, s.spaceId, inboxId);
      if (next !== null) nexts.push(next);
    }
    for (const email of pendingEvents) {
      const state = await stateOf(email);
      if (!state.m || !(await sentAt(state.m))) continue;
      pendingEvents.delete(email);
      const header = (await readMessage(svc.rt, s.spaceId, state.m))!.message_id_header;
      if (email === leaver) await unsubscribeRecipient(svc.rt, s.spaceId, state.m, email);
      else {
        const automatic = email === autoReplier;
        await inbound.send({
          from: email,
          to: (await svc.rt.redis.hget(keys.inbox(state.i!), 'address'))!,
          subject: automatic ? 'Absent du bureau' : 'Re: Bonjour',
          inReplyTo: header,
          ...(automatic ? { headers: { 'Auto-Submitted': 'auto-replied' } } : {}),
          text: automatic ? 'Je suis absent.' : 'Volontiers, appelez-moi.',
        });
      }
    }
    if (status === 'finished' && nexts.length === 0) break;
    // The next departure, or the next hour when only the feeder has work (a follow-up falling due).
    clock.set(Math.max(clock.now() + 1, Math.min(...nexts, clock.now() + 3600_000)));
  }
  t.equal(status, 'finished', 'the campaign ran to completion');

  // Every message of the campaign, from the contacts' threads.
  const states = new Map(
    Object.entries(await svc.rt.redis.hgetall(keys.campaignContacts(campaignId))).map(([email, json]) => [
      email,
      JSON.parse(json) as ContactState,
    ]),
  );
  t.equal(states.size, 300);
  interface Sent {
    id: string;
    inbox: string;
    at: number;
    status: string;
    campaign: string;
    direction: string;
  }
  const byContact = new Map<string, Sent[]>();
  for (const [email, state] of states) {
    const ids = threadIdsIn(
      await svc.rt.redis.hget(keys.thread(state.t!), 'msgs'),
      await svc.rt.redis.zrange(keys.threadMessages(state.t!), '0', '-1'),
      (all) => all,
    );
    const messages: Sent[] = [];
    for (const id of ids) {
      const [inbox, at, status, campaign] = await svc.rt.redis.hmget(
        keys.message(id),
        'inbox_id',
        'sent_at',
        'status',
        'campaign_id',
      );
      messages.push({
        id,
        inbox: inbox!,
        at: at ? Date.parse(at) : 0,
        status: status!,
        campaign: campaign!,
        direction: directionOf(status)!,
      });
    }
    byContact.set(
      email,
      messages.filter((m) => m.direction === 'outbound'),
    );
  }
  const outbound = [...byContact.values()].flat();
  t.ok(
    outbound.every((m) => m.campaign === campaignId && m.at > 0),
    'every message carries the campaign and left',
  );

  const created_at = new Map<string, number>();
  for (const id of inboxIds) created_at.set(id, Date.parse((await svc.rt.redis.hget(keys.inbox(id), 'created_at'))!));
  const perDay = new Map<string, number[]>();
  for (const m of outbound) {
    const paris = DateTime.fromMillis(m.at, { zone: 'Europe/Paris' });
    if (!(paris.weekday <= 5 && paris.hour >= 9 && paris.hour < 18))
      t.fail(`${m.id} left outside the window: ${paris.toISO()}`);
    const key = `${m.inbox} ${paris.toISODate()}`;
    perDay.set(key, [...(perDay.get(key) ?? []), m.at]);
  }
  let overQuota = 0;
  let tooClose = 0;
  for (const [key, times] of perDay) {
    const [inbox, day] = key.split(' ') as [string, string];
    const quota = warmup(
      created_at.get(inbox)!,
      DateTime.fromISO(day, { zone: 'Europe/Paris' }).plus({ hours: 12 }).toMillis(),
      20,
    ).step;
    if (times.length > quota) overQuota++;
    times.sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) if (times[i]! - times[i - 1]! < 600_000) tooClose++;
  }
  t.equal(overQuota, 0, "no inbox's day goes past its warm-up quota");
  t.equal(tooClose, 0, 'two departures of an inbox are 10 minutes apart at least');
  t.ok(
    [...perDay.keys()].some((key) => key.endsWith('2026-11-23')),
    'the first day already sends',
  );

  t.equal(byContact.get(replier)!.length, 1, 'a reply stops the follow-ups');
  t.same(await stateOf(replier), { ...(await stateOf(replier)), s: 'stopped', r: 'replied' });
  t.equal(byContact.get(leaver)!.length, 1, 'an unsubscription stops the contact');
  t.equal((await stateOf(leaver)).r, 'unsubscribed');
  t.equal(byContact.get(autoReplier)!.length, 3, 'an auto-reply does not');
  let lateFollowUps = 0;
  for (const [email, messages] of byContact) {
    if ([replier, leaver].includes(email)) continue;
    if (messages.length !== 3) t.fail(`${email}: ${messages.length} messages`);
    messages.sort((a, b) => a.at - b.at);
    if (
      messages[1]!.at < afterWorkingDays(messages[0]!.at, 2) ||
      messages[2]!.at < afterWorkingDays(messages[1]!.at, 3)
    )
      lateFollowUps++;
    if (new Set(messages.map((m) => m.inbox)).size !== 1) t.fail(`${email}: follow-ups from another inbox`);
  }
  t.equal(lateFollowUps, 0, 'each follow-up leaves after its Paris working days');

  const figures = (await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaignId })).body.figures;
  const latest = [...states.values()].map((state) => ({
    inbox: state.i!,
    status: outbound.find((m) => m.id === state.m)!.status,
  }));
  const countOf = (list: { status: string }[], status: string) => list.filter((m) => m.status === status).length;
  t.match(figures, {
    recipients: 300,
    waiting: 0,
    replied: 1,
    unsubscribed: 1,
    follow_ups_sent: 2 * 298,
    sent: countOf(latest, 'sent'),
    delivered: countOf(latest, 'delivered'),
  });
  t.equal(figures.sent + figures.delivered, 300, 'every contact written to and gone');
  for (const inbox of figures.per_inbox) {
    const own = latest.filter((m) => m.inbox === inbox.inbox_id);
    t.match(
      inbox,
      { recipients: own.length, sent: countOf(own, 'sent'), delivered: countOf(own, 'delivered'), queued: 0 },
      `${inbox.inbox_id}: what its messages say`,
    );
  }
  t.equal(figures.per_inbox.length, 3);
  t.equal(
    figures.days.reduce((sum: number, d: { sent: number }) => sum + d.sent, 0),
    outbound.length,
    'the daily series adds up to every departure',
  );
  t.equal(figures.rates.reply, Math.round((1 / 300) * 10_000) / 10_000);

  const journal = await svc.call(s.apiKey, 'list_events', { campaign_id: campaignId, limit: 200 });
  const kinds = journal.body.events.map((e: { kind: string }) => e.kind);
  t.ok(kinds.includes('campaign.finished') && kinds.includes('message.sent'), 'the journal reads by campaign');
  const leaverLines = (await svc.call(s.apiKey, 'list_events', { contact: leaver })).body.events as {
    kind: string;
    campaign_id?: string;
  }[];
  t.equal(
    leaverLines.find((e) => e.kind === 'contact.unsubscribed')?.campaign_id,
    campaignId,
    'the unsubscription names the campaign',
  );
  // The stream keeps 30 days: the start is long gone, the end is there.
  const types = await streamEnvelopes(svc.rt, s.spaceId);
  t.ok(
    types.some((e) => e.type === 'mail.campaign.finished' && e.subject.refs.campaign_id === campaignId),
    'mail.campaign.finished',
  );
  t.ok(
    types.some((e) => e.type === 'mail.message.sent' && e.subject.refs.campaign_id === campaignId),
    "departures' events carry the campaign",
  );
});

/** A running campaign of one contact (`name`, at `email`) with two follow-ups a working day apart; its state read back. */
async function oneContact(s: Awaited<ReturnType<typeof sender>>, email: string, name: string) {
  const { audience } = (await svc.call(s.apiKey, 'create_audience', { name })).body;
  await svc.call(s.apiKey, 'add_contacts', { audience_id: audience.id, contacts: [{ email, name }] });
  const created = await svc.call(s.apiKey, 'create_campaign', {
    name,
    audience_id: audience.id,
    inbox_ids: [s.inboxId],
    subject: 'Bonjour {{name}}',
    text: 'Bonjour {{name}}. {{unsubscribe_url}}',
    follow_ups: [
      { after_days: 1, text: 'Je me permets de vous relancer.' },
      { after_days: 1, text: 'Dernière relance.' },
    ],
  });
  const campaignId = created.body.campaign.id as string;
  await svc.call(s.apiKey, 'start_campaign', { campaign_id: campaignId });
  const keys = spaceKeys(s.spaceId);
  const stateOf = async () =>
    JSON.parse((await svc.rt.redis.hget(keys.campaignContacts(campaignId), email)) ?? '{}') as ContactState;
  return { campaignId, keys, stateOf };
}

t.test(
  'a reply that comes while a follow-up waits in the queue: the follow-up does not leave, the contact stops',
  async (t) => {
    const s = await sender(svc);
    const email = 'attente@destinataire.test';
    const { campaignId, keys, stateOf } = await oneContact(s, email, 'Attente');
    const transport = transportFor(svc.rt);
    let firstId = '';
    let followUpId = '';
    let status = 'running';
    for (let round = 0; round < 24 * 21; round++) {
      status = await feedCampaign(svc.rt, s.spaceId, campaignId);
      const state = await stateOf();
      if (state.s === 'written' && state.k === 0) firstId = state.m!;
      if (!followUpId && state.s === 'written' && state.k === 1) {
        // The follow-up is written and waits for its slot: the contact answers the first message now.
        followUpId = state.m!;
        t.equal(
          await svc.rt.redis.hget(keys.message(followUpId), 'status'),
          'queued',
          'the follow-up waits in the queue',
        );
        await inbound.send({
          from: email,
          to: s.address,
          subject: 'Re: Bonjour Attente',
          inReplyTo: (await readMessage(svc.rt, s.spaceId, firstId))!.message_id_header,
          text: 'Volontiers, appelez-moi.',
        });
        t.equal(
          await svc.rt.redis.hget(keys.thread(state.t!), 'correspondent_wrote'),
          '1',
          'the reply reached the thread',
        );
        // At once, before any feeder visit: get_contact and campaign_status agree.
        t.match(await stateOf(), { s: 'stopped', r: 'replied', k: 1, m: followUpId }, 'the contact stops at reception');
        t.equal(
          await svc.rt.redis.zscore(keys.campaignFollowUps(campaignId), email),
          null,
          'no follow-up due any more',
        );
        const contact = (await svc.call(s.apiKey, 'get_contact', { email })).body;
        t.match(contact.campaigns, [{ campaign_id: campaignId, state: 'stopped', reason: 'replied' }]);
        t.match((await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaignId })).body.figures, {
          replied: 1,
        });
      }
      const next = await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
      if (status === 'finished' && next === null) break;
      clock.set(Math.max(clock.now() + 1, Math.min(next ?? Infinity, clock.now() + 3600_000)));
    }
    t.ok(followUpId, 'a follow-up was written');
    t.equal(status, 'finished');
    const lines = (await svc.call(s.apiKey, 'list_events', { contact: email })).body.events as {
      kind: string;
      message_id?: string;
    }[];
    t.same(
      lines.filter((l) => l.kind === 'message.sent').map((l) => l.message_id),
      [firstId],
      'only the first message left',
    );
    t.equal(
      await svc.rt.redis.hget(keys.message(followUpId), 'status'),
      'cancelled',
      'the queued follow-up is cancelled at its departure',
    );
    t.match(await stateOf(), { s: 'stopped', r: 'replied', m: followUpId });
    t.match((await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaignId })).body.figures, {
      replied: 1,
      cancelled: 1,
      follow_ups_sent: 0,
    });
  },
);

t.test(
  'a reply that comes while a feeder writes the follow-up: the feeder records the contact stopped, not written',
  async (t) => {
    const s = await sender(svc);
    const email = 'pendant@destinataire.test';
    const { campaignId, keys, stateOf } = await oneContact(s, email, 'Pendant');
    let replied = false;
    // The reply lands while the feeder, having written the first follow-up, is about to record it.
    const replyingMeanwhile: Runtime = {
      ...svc.rt,
      scripts: {
        run: async (name: string, ...rest: unknown[]) => {
          const state = await stateOf();
          if (name === 'campaign/recordContact' && !replied && state.s === 'claimed' && state.k === 1) {
            replied = true;
            const first = (await readMessage(svc.rt, s.spaceId, state.m!))!;
            await inbound.send({
              from: email,
              to: s.address,
              subject: 'Re: Bonjour Pendant',
              inReplyTo: first.message_id_header,
              text: 'Oui, parlons-en.',
            });
            t.match(await stateOf(), { s: 'claimed', k: 1, rp: 1 }, 'a claimed contact is marked');
          }
          return (svc.rt.scripts.run as (...a: unknown[]) => Promise<unknown>)(name, ...rest);
        },
      } as unknown as Runtime['scripts'],
    };
    const transport = transportFor(svc.rt);
    for (let round = 0; round < 24 * 14 && !replied; round++) {
      await feedCampaign(replyingMeanwhile, s.spaceId, campaignId);
      const next = await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
      clock.set(Math.max(clock.now() + 1, Math.min(next ?? Infinity, clock.now() + 3600_000)));
    }
    t.ok(replied, 'the reply came during the follow-up');
    const state = await stateOf();
    t.match(state, { s: 'stopped', r: 'replied', k: 1 }, 'recorded stopped: the written follow-up was its last step');
    t.notOk('rp' in state, 'the mark goes with the claim');
    t.equal(await svc.rt.redis.zscore(keys.campaignFollowUps(campaignId), email), null, 'no second follow-up due');
    t.match((await svc.call(s.apiKey, 'get_contact', { email })).body.campaigns, [
      { state: 'stopped', reason: 'replied' },
    ]);
  },
);

t.test(
  'a contact whose fields changed so that it can no longer fill a follow-up stops before it: never a {{field}} sent',
  async (t) => {
    const s = await sender(svc);
    const email = 'lea@destinataire.test';
    const { audience } = (await svc.call(s.apiKey, 'create_audience', { name: 'Avec prénom' })).body;
    await svc.call(s.apiKey, 'add_contacts', {
      audience_id: audience.id,
      contacts: [{ email, name: 'Léa', fields: { prenom: 'Léa' } }],
    });
    const created = await svc.call(s.apiKey, 'create_campaign', {
      name: 'Prénoms',
      audience_id: audience.id,
      inbox_ids: [s.inboxId],
      subject: 'Bonjour',
      text: 'Bonjour {{prenom}}. {{unsubscribe_url}}',
      follow_ups: [{ after_days: 1, text: '{{prenom}}, je me permets de vous relancer.' }],
    });
    t.equal(created.status, 200, JSON.stringify(created.body));
    const campaignId = created.body.campaign.id;
    await svc.call(s.apiKey, 'start_campaign', { campaign_id: campaignId });
    const keys = spaceKeys(s.spaceId);
    const stateOf = async () =>
      JSON.parse((await svc.rt.redis.hget(keys.campaignContacts(campaignId), email)) ?? '{}') as ContactState;
    const transport = transportFor(svc.rt);
    let changed = false;
    let status = 'running';
    for (let round = 0; round < 24 * 21; round++) {
      status = await feedCampaign(svc.rt, s.spaceId, campaignId);
      if (!changed && (await stateOf()).s === 'written') {
        // Added again elsewhere without its fields: the contact sheet is the one given last.
        const { audience: other } = (await svc.call(s.apiKey, 'create_audience', { name: 'Sans champs' })).body;
        await svc.call(s.apiKey, 'add_contacts', { audience_id: other.id, contacts: [{ email, name: 'Léa' }] });
        changed = true;
      }
      const next = await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
      if (status === 'finished' && next === null) break;
      clock.set(Math.max(clock.now() + 1, Math.min(next ?? Infinity, clock.now() + 3600_000)));
    }
    t.equal(status, 'finished');
    const lines = (await svc.call(s.apiKey, 'list_events', { contact: email })).body.events as { kind: string }[];
    t.equal(lines.filter((l) => l.kind === 'message.sent').length, 1, 'the first message only');
    t.match(await stateOf(), { s: 'stopped', r: 'unresolved_placeholder', k: 0 });
  },
);
