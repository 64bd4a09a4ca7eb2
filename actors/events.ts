/**
 * Event envelopes (decisions.md 5): built here, appended by the script that changes the state
 * (lua/includes/appendEvent.lua), read by event_feed and the webhook workers.
 */
import type { Runtime } from '../src/runtime.js';
import { iso } from '../src/clock.js';

export type EventType =
  | 'mail.message.queued'
  | 'mail.message.sent'
  | 'mail.message.delivered'
  | 'mail.message.bounced'
  | 'mail.message.failed'
  | 'mail.message.rejected'
  | 'mail.message.received'
  | 'mail.thread.replied'
  | 'mail.contact.unsubscribed'
  | 'mail.contact.complained'
  | 'mail.draft.created'
  | 'mail.inbox.suspended'
  | 'mail.domain.verified'
  | 'mail.domain.suspended';

export interface EventSubject {
  person?: { email: string; name: string | null } | null;
  refs?: { inbox_id?: string; thread_id?: string; message_id?: string; campaign_id?: string; domain_id?: string };
}

export interface Envelope {
  id: string;
  type: EventType;
  occurred_at: string;
  account: { space_id: string };
  subject: { person: { email: string; name: string | null } | null; refs: Record<string, string> };
  data: Record<string, unknown>;
  v: 1;
}

/** The envelope JSON for a script's ARGV. */
export function prepareEvent(rt: Runtime, spaceId: string, type: EventType, subject: EventSubject, data: Record<string, unknown>): string {
  const envelope: Envelope = {
    id: rt.ids.next('event'),
    type,
    occurred_at: iso(rt.clock.now()),
    account: { space_id: spaceId },
    subject: { person: subject.person ?? null, refs: { ...subject.refs } },
    data,
    v: 1,
  };
  return JSON.stringify(envelope);
}
