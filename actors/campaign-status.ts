/**
 * campaign_status's performances (docs/contract.md, Decision 11), read from the campaign's contacts and their
 * messages at each call, so they never drift from what the messages say. Figures count contacts:
 * each contact the campaign wrote to counts once, under the status of its latest message; `replied`,
 * `unsubscribed` and `complained` count contacts again, whatever that status; `follow_ups_sent` counts
 * messages. Costs one read per contact and per message of its thread (pipelined): the page of a
 * campaign, not a hot path.
 */
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import type { Runtime } from '../src/runtime.js';
import { iso } from '../src/clock.js';
import { parisDay, type Reason } from '../src/texts.js';
import type { ContactState, StoredCampaign } from './campaign.js';
import { directionOf, readThreads, receivedAtOf, threadIdsIn } from './stored-records.js';
import { readDocument, recordOfPairs } from './history-records.js';

export const MESSAGE_BUCKETS = [
  'drafts',
  'queued',
  'sent',
  'delivered',
  'bounced',
  'failed',
  'rejected',
  'cancelled',
] as const;
export const SKIP_REASONS = [
  'suppressed',
  'dead_address',
  'duplicate',
  'filtered',
  'unresolved_placeholder',
  'field_placeholder',
  'invalid_subject',
  'removed',
] as const satisfies readonly Reason[];
const OUTCOMES = ['replied', 'unsubscribed', 'complained', 'follow_ups_sent'] as const;

type Bucket = (typeof MESSAGE_BUCKETS)[number] | (typeof OUTCOMES)[number] | 'recipients';
export type Counts = Record<Bucket, number>;

/** The bucket of a message status (a message being handed over still waits in the queue's count). */
const BUCKET_OF: Record<string, (typeof MESSAGE_BUCKETS)[number]> = {
  draft: 'drafts',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  bounced: 'bounced',
  failed: 'failed',
  rejected: 'rejected',
  cancelled: 'cancelled',
};

const zeros = (): Counts =>
  Object.fromEntries([...MESSAGE_BUCKETS, ...OUTCOMES, 'recipients'].map((name) => [name, 0])) as Counts;

export interface CampaignFigures extends Counts {
  waiting: number;
  skipped: Record<(typeof SKIP_REASONS)[number], number>;
  rates: { reply: number; bounce: number; unsubscribe: number };
  per_inbox: (Counts & { inbox_id: string })[];
  days: { day: string; sent: number; replied: number }[];
  /** The earliest departure of its queued messages (ISO 8601), null when none waits in a queue (or it is paused). */
  next_send_at: string | null;
}

const rate = (part: number, whole: number): number => (whole ? Math.round((part / whole) * 10_000) / 10_000 : 0);

interface ThreadMessage {
  direction: string | null;
  sentAt: string | null;
  receivedAt: string | null;
  autoReply: string | null;
  campaignId: string | null;
}

export async function campaignFigures(
  rt: Runtime,
  spaceId: string,
  campaign: StoredCampaign,
): Promise<CampaignFigures> {
  const keys = spaceKeys(spaceId);
  const [raw, ahead, pending] = await Promise.all([
    rt.redis.hgetall(keys.campaignContacts(campaign.id)),
    rt.redis.zcount(keys.audienceMembers(campaign.audience_id), `(${campaign.cursor || '0'}`, '+inf'),
    rt.redis.zcard(keys.campaignPending(campaign.id)),
  ]);
  const skipped = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as CampaignFigures['skipped'];
  let waiting = ahead + pending;
  const written: { email: string; state: ContactState }[] = [];
  for (const [email, json] of Object.entries(raw)) {
    const state = JSON.parse(json) as ContactState;
    if (state.s === 'skipped')
      skipped[state.r as keyof typeof skipped] = (skipped[state.r as keyof typeof skipped] ?? 0) + 1;
    else if (state.m) written.push({ email, state });
    else waiting++;
  }
  const pipeline = rt.redis.pipeline();
  for (const { email, state } of written) {
    pipeline
      .hget(keys.message(state.m!), 'status')
      .hget(keys.suppressions, email)
      .zrange(keys.threadMessages(state.t!), '0', '-1');
  }
  const [replies, rows] = await Promise.all([
    execAll<string | null | string[]>(pipeline),
    readThreads(
      rt,
      spaceId,
      written.map(({ state }) => state.t!),
    ),
  ]);
  // A thread in history: its messages' hashes, as stored, are in its document.
  const inHistory = new Map<string, Record<string, string>>();
  const documents = await Promise.all(
    rows.map((row) => (row?.history ? readDocument(rt, spaceId, row.history) : Promise.resolve(null))),
  );
  for (const document of documents)
    document?.ids.forEach((id, j) => inHistory.set(id, recordOfPairs(document.messages[j]!)));
  const threads = written.map(
    (_, i) => documents[i]?.ids ?? threadIdsIn(rows[i]?.msgs, replies[3 * i + 2] as string[], (all) => all),
  );
  const FIELDS = ['status', 'sent_at', 'received_at', 'auto_reply', 'campaign_id', 'slot'] as const;
  const messages = rt.redis.pipeline();
  const ids = threads.flat();
  for (const id of ids) if (!inHistory.has(id)) messages.hmget(keys.message(id), ...FIELDS);
  const live = await execAll<(string | null)[]>(messages);
  let nextSend: number | null = null;
  let at = 0;
  const fields = ids
    .map((id) => {
      const record = inHistory.get(id);
      return record ? FIELDS.map((field) => record[field] ?? null) : live[at++]!;
    })
    .map(([status, sentAt, receivedAt, autoReply, campaignId, slot], i) => {
      if (status === 'queued' && campaignId === campaign.id && Number(slot) > 0)
        nextSend = Math.min(nextSend ?? Infinity, Number(slot));
      return {
        direction: directionOf(status),
        sentAt,
        receivedAt: receivedAtOf(ids[i]!, status, receivedAt) || null,
        autoReply,
        campaignId,
      } as ThreadMessage;
    });

  const total = zeros();
  const perInbox = new Map<string, Counts>();
  const days = new Map<string, { sent: number; replied: number }>();
  const dayOf = (at: string) => {
    const day = parisDay(Date.parse(at));
    if (!days.has(day)) days.set(day, { sent: 0, replied: 0 });
    return days.get(day)!;
  };
  let contacted = 0;
  let offset = 0;
  written.forEach(({ state }, i) => {
    const status = (replies[3 * i] as string | null) ?? inHistory.get(state.m!)?.status ?? null;
    const block = replies[3 * i + 1] as string | null;
    const reason = block ? (JSON.parse(block) as { reason: string }).reason : null;
    const thread = fields.slice(offset, (offset += threads[i]!.length));
    const ours = thread.filter((m) => m.direction === 'outbound' && m.campaignId === campaign.id && m.sentAt);
    const reply = thread.find((m) => m.direction === 'inbound' && m.autoReply !== '1');
    for (const m of ours) dayOf(m.sentAt!).sent++;
    if (reply?.receivedAt) dayOf(reply.receivedAt).replied++;
    if (ours.length) contacted++;
    const counts = perInbox.get(state.i!) ?? perInbox.set(state.i!, zeros()).get(state.i!)!;
    for (const c of [total, counts]) {
      c.recipients++;
      if (status && BUCKET_OF[status]) c[BUCKET_OF[status]]++;
      if (rows[i]?.correspondent_wrote === '1') c.replied++;
      if (reason === 'unsubscribe') c.unsubscribed++;
      if (reason === 'complaint') c.complained++;
      c.follow_ups_sent += Math.max(0, ours.length - 1);
    }
  });
  const recipients = total.recipients + waiting + Object.values(skipped).reduce((a, b) => a + b, 0);
  return {
    ...total,
    recipients,
    waiting,
    skipped,
    rates: {
      reply: rate(total.replied, contacted),
      bounce: rate(total.bounced, contacted),
      unsubscribe: rate(total.unsubscribed, contacted),
    },
    per_inbox: [...perInbox].map(([inbox_id, counts]) => ({ inbox_id, ...counts })),
    days: [...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, d]) => ({ day, ...d })),
    // A paused campaign's messages are held out of the queues: none leaves until it runs again.
    next_send_at: nextSend === null || campaign.status !== 'running' ? null : iso(nextSend),
  };
}
