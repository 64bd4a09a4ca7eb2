/** A sending setup for outbound tests: a paying, verified space with an own verified domain and an inbox. */
import { randomBytes } from 'node:crypto';
import { spaceKeys } from '../../src/redis/keys.js';
import { parisDay } from '../../src/texts.js';
import { verifiedDomain } from './domains.js';
import type { TestService } from './service.js';

export interface Sender {
  spaceId: string;
  apiKey: string;
  inboxId: string;
  address: string;
  domain: string;
}

export async function sender(svc: TestService, options: { plan?: string; human?: string } = {}): Promise<Sender> {
  const { spaceId, apiKey } = await svc.space({
    plan: options.plan ?? 'pro',
    human: options.human ?? 'humain@exemple.fr',
  });
  const { domain } = await verifiedDomain(svc, apiKey);
  const res = await svc.call(apiKey, 'create_inbox', { username: 'ventes', domain, display_name: 'Équipe ventes' });
  if (res.status !== 200) throw new Error(`create_inbox failed: ${JSON.stringify(res.body)}`);
  return { spaceId, apiKey, inboxId: res.body.id, address: res.body.address, domain };
}

export const recipient = (label = 'client'): string => `${label}-${randomBytes(3).toString('hex')}@destinataire.test`;

/** A send_email from the sender's inbox to a new recipient; `body` overrides or adds parameters. */
export const send = (svc: TestService, s: Sender, body: Record<string, unknown> = {}) =>
  svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to: recipient(),
    subject: 'Bonjour',
    text: 'Bonjour,\nune proposition.',
    ...body,
  });

/**
 * Everything a send, an approval or a cancellation writes about the sender's inbox and space: counters,
 * draft sets, queues, the day reservations, the 30-day recipients, threads, journal and events. Two
 * equal snapshots mean nothing was written in between.
 */
export async function inboxState(svc: TestService, s: Sender) {
  const keys = spaceKeys(s.spaceId);
  const r = svc.rt.redis;
  const [counters, drafts, inboxDrafts, queue, inboxQueue, slots, recipients, threads, journal, events, keySent] =
    await Promise.all([
      r.hmget(keys.inbox(s.inboxId), 'drafts', 'queued'),
      r.zrange(keys.drafts, '0', '-1'),
      r.zrange(keys.inboxDrafts(s.inboxId), '0', '-1'),
      r.zrange(keys.queue, '0', '-1'),
      r.zrange(keys.inboxQueue(s.inboxId), '0', '-1'),
      r.hgetall(keys.inboxSlots(s.inboxId)),
      r.hgetall(keys.inboxRecipients(s.inboxId)),
      r.zrange(keys.threads, '0', '-1'),
      r.hlen(keys.journal),
      r.xlen(keys.events),
      r.hgetall(keys.keySentOn(parisDay(svc.clock.now()))),
    ]);
  return {
    drafts: Number(counters[0] ?? 0),
    queued: Number(counters[1] ?? 0),
    draftIds: drafts,
    inboxDraftIds: inboxDrafts,
    queueIds: queue,
    inboxQueueIds: inboxQueue,
    slots,
    recipients,
    threads,
    journal,
    events,
    keySent,
  };
}
