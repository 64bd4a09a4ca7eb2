/**
 * Stripe's webhook (`POST /billing/stripe`): how a paid, late or ended subscription becomes the
 * space's plan. Only the subscription's own events count (`customer.subscription.created`,
 * `.updated`, `.deleted`): they carry the space and the plan in the metadata subscribe put on the
 * subscription, its status and its paid period, and Stripe sends one at every change (payment,
 * failed renewal, cancellation). Every other event is acknowledged and ignored.
 * The request is Stripe's only if its `Stripe-Signature` holds an HMAC-SHA256 of
 * `<timestamp>.<raw body>` under STRIPE_WEBHOOK_SECRET, made less than five minutes from our clock.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { applyBillingChange, type BillingChange, type BillingStatus } from '../../actors/space.js';
import type { Config, Plan } from '../config.js';
import { MailboxError } from '../errors.js';
import { parseJson } from './io.js';
import { idPattern } from '../ids.js';
import type { Runtime } from '../runtime.js';

const SPACE_ID = new RegExp(idPattern('space'));

/** Stripe's own default tolerance: an older signed request is a replay. */
const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** True when the header signs this body with the secret, within the tolerance of `nowMs`. */
function verifyStripeSignature(header: string | undefined, body: Buffer, secret: string, nowMs: number): boolean {
  const parts = (header ?? '').split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(nowMs - timestamp * 1000) > SIGNATURE_TOLERANCE_MS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  return parts.some(([name, value]) => {
    if (name !== 'v1' || !/^[0-9a-f]{64}$/.test(value ?? '')) return false;
    return timingSafeEqual(Buffer.from(value!, 'hex'), expected);
  });
}

/**
 * Stripe's subscription statuses, as billing_status shows them. A subscription not yet paid
 * (`incomplete`) changes nothing; a late one keeps its plan while Stripe retries the payment.
 */
const STATUS_OF: Record<string, BillingStatus | null> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  incomplete: null,
  incomplete_expired: 'cancelled',
  canceled: 'cancelled',
  paused: 'cancelled',
};

interface StripeSubscription {
  status?: string;
  metadata?: { space_id?: string; plan?: string };
  current_period_end?: number;
  items?: { data?: { current_period_end?: number; price?: { id?: string } }[] };
}

/** The plan a subscription pays for: its metadata's, else the plan whose price it bills. */
function paidPlan(subscription: StripeSubscription, plans: Config['plans']): Plan | null {
  const named = subscription.metadata?.plan;
  if (named && plans[named]) return plans[named];
  const price = subscription.items?.data?.[0]?.price?.id;
  return (price && Object.values(plans).find((plan) => plan.price_id === price)) || null;
}

/**
 * The change a Stripe event asks for; null when it asks none (another event type, a subscription
 * not yet paid, none of our spaces). A paid plan this deployment does not know (PLANS changed) is
 * billing_unavailable: Stripe retries for three days, time for the operator to put it back.
 */
function billingChangeOf(event: unknown, plans: Config['plans']): BillingChange | null {
  const { id, type, created, data } = (event ?? {}) as {
    id?: unknown;
    type?: unknown;
    created?: unknown;
    data?: { object?: StripeSubscription };
  };
  if (
    typeof id !== 'string' ||
    typeof type !== 'string' ||
    typeof created !== 'number' ||
    !type.startsWith('customer.subscription.')
  )
    return null;
  const subscription = data?.object ?? {};
  const spaceId = subscription.metadata?.space_id;
  if (typeof spaceId !== 'string' || !SPACE_ID.test(spaceId)) return null;
  const status = type === 'customer.subscription.deleted' ? 'cancelled' : STATUS_OF[subscription.status ?? ''];
  if (!status) return null;
  const change = { eventId: id, eventMs: created * 1000, spaceId, status };
  if (status === 'cancelled') return { ...change, plan: 'none', periodEnd: null };
  const plan = paidPlan(subscription, plans);
  if (!plan) throw new MailboxError('billing_unavailable');
  // Newer API versions give the period on each item, older ones on the subscription.
  const periodEnd = subscription.current_period_end ?? subscription.items?.data?.[0]?.current_period_end;
  return { ...change, plan: plan.name, periodEnd: typeof periodEnd === 'number' ? periodEnd * 1000 : null };
}

/**
 * One request of Stripe's webhook: checked, then applied to its space. A space that no longer exists
 * (erased after closure) acknowledges the event: nothing is left to bill.
 */
export async function receiveStripeEvent(
  rt: Runtime,
  signature: string | undefined,
  body: Buffer,
): Promise<{ received: true; applied: boolean }> {
  const secret = rt.config.stripeWebhookSecret;
  if (!secret) throw new MailboxError('billing_unavailable');
  if (!verifyStripeSignature(signature, body, secret, rt.clock.now())) {
    throw new MailboxError(
      'invalid_argument',
      { parameter: 'Stripe-Signature' },
      { reason: 'signature absente, fausse ou vieille de plus de cinq minutes.' },
    );
  }
  const event = parseJson(body) as { id?: unknown; type?: unknown };
  let change: BillingChange | null;
  try {
    change = billingChangeOf(event, rt.config.plans);
  } catch (error) {
    rt.log.error('stripe subscription for a plan not in PLANS', { event: String(event.id), type: String(event.type) });
    throw error;
  }
  if (!change) return { received: true, applied: false };
  try {
    return { received: true, applied: await applyBillingChange(rt, change) };
  } catch (error) {
    if (error instanceof MailboxError && error.code === 'not_found') return { received: true, applied: false };
    throw error;
  }
}
