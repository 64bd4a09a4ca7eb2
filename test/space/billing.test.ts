/** billing_status, subscribe (not configured; the Stripe request), Stripe's webhook, set-plan, payment_required. */
import { createHmac } from 'node:crypto';
import t from 'tap';
import { setPlan } from '../../actors/space.js';
import { checkoutRequest } from '../../src/billing/stripe.js';
import { ManualClock } from '../../src/clock.js';
import { runCli } from '../../src/cli/main.js';
import { DEFAULT_PLANS } from '../../src/config.js';
import { testRedisTarget } from '../helpers/redis.js';
import { startService, type TestService } from '../helpers/service.js';
import { startFakeStripe } from '../helpers/stripe.js';

const svc = await startService();

t.test('billing_status without plan, then with one', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'none' });
  const none = await svc.call(apiKey, 'billing_status', {});
  t.same(none.body, {
    plan: 'none',
    status: 'none',
    current_period_end: null,
    inbox_cap: 1,
    inboxes_used: 0,
    notice:
      "Sans offre, l'espace reçoit, prépare des brouillons et n'écrit qu'à son humain : souscrivez une offre avec subscribe.",
  });
  await svc.call(apiKey, 'create_inbox', { username: `solo-${spaceId.slice(-8)}`, display_name: 'Solo' });
  const second = await svc.call(apiKey, 'create_inbox', { username: `duo-${spaceId.slice(-8)}`, display_name: 'Duo' });
  t.equal(second.status, 402);
  t.equal(second.body.error.code, 'payment_required', 'a second inbox needs a plan');
  await setPlan(svc.rt, spaceId, 'pro');
  const pro = await svc.call(apiKey, 'billing_status', {});
  t.same(pro.body, {
    plan: 'pro',
    status: 'active',
    current_period_end: null,
    inbox_cap: 25,
    inboxes_used: 1,
    notice: null,
  });
  t.equal(
    (await svc.call(apiKey, 'create_inbox', { username: `duo-${spaceId.slice(-8)}`, display_name: 'Duo' })).status,
    200,
  );
});

t.test('subscribe: billing_unavailable without a provider; unknown plan is invalid_argument', async (t) => {
  const { apiKey } = await svc.space();
  const res = await svc.call(apiKey, 'subscribe', { plan: 'pro' });
  t.equal(res.status, 503);
  t.equal(res.body.error.code, 'billing_unavailable');
  t.equal(res.headers.get('retry-after'), '60');
  t.equal((await svc.call(apiKey, 'subscribe', { plan: 'platine' })).body.error.code, 'invalid_argument');
  const reader = await svc.key(apiKey, { name: 'lecteur', permissions: ['read'] });
  t.equal((await svc.call(reader.apiKey, 'subscribe', { plan: 'pro' })).body.error.code, 'forbidden');
});

t.test('the Checkout Session request carries the price, the space and the human', async (t) => {
  const plan = { ...DEFAULT_PLANS.pro!, price_id: 'price_123' };
  const request = checkoutRequest(
    'https://api.stripe.com/v1',
    'sk_live_x',
    'https://mailbox.exemple',
    'spc_x',
    plan,
    'h@exemple.fr',
  );
  t.equal(request.url, 'https://api.stripe.com/v1/checkout/sessions');
  t.equal(request.init.method, 'POST');
  t.match(request.init.headers, {
    authorization: 'Bearer sk_live_x',
    'content-type': 'application/x-www-form-urlencoded',
  });
  const form = new URLSearchParams(String(request.init.body));
  t.equal(form.get('mode'), 'subscription');
  t.equal(form.get('line_items[0][price]'), 'price_123');
  t.equal(form.get('subscription_data[metadata][space_id]'), 'spc_x');
  t.equal(form.get('customer_email'), 'h@exemple.fr');
  t.match(form.get('success_url'), /^https:\/\/mailbox\.exemple\//);
});

t.test('subscribe with a provider: the checkout URL; its failure is billing_unavailable', async (t) => {
  const stripe = await startFakeStripe();
  const plans = JSON.stringify({ pro: { inbox_cap: 25, price_id: 'price_pro' }, maison: { inbox_cap: 2 } });
  const billed = await startService({
    env: { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_URL: stripe.url, PLANS: plans },
  });
  const { apiKey } = await billed.space();
  const res = await billed.call(apiKey, 'subscribe', { plan: 'pro' });
  t.match(res.body, {
    plan: 'pro',
    checkout_url: 'https://checkout.stripe.test/c/pay/cs_test_1',
    notice: /^Donnez cette adresse à l'humain de l'espace/,
  });
  t.equal(
    (await billed.call(apiKey, 'subscribe', { plan: 'maison' })).body.error.code,
    'billing_unavailable',
    'a plan without a price is not sold online',
  );
  stripe.failing = true;
  t.equal((await billed.call(apiKey, 'subscribe', { plan: 'pro' })).body.error.code, 'billing_unavailable');
});

const WEBHOOK_SECRET = 'whsec_dGVzdHNlY3JldA';

/** Posts an event to Stripe's webhook as Stripe would: signed with `secret`, `at` (ms) its timestamp. */
function stripePost(service: TestService, body: string, { secret = WEBHOOK_SECRET, at = service.clock.now() } = {}) {
  const timestamp = Math.floor(at / 1000);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return fetch(`${service.url}/billing/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': `t=${timestamp},v1=${signature}` },
    body,
  });
}

/** A subscription event as Stripe's API shapes it; `created` in seconds. */
const subscriptionEvent = (id: string, type: string, created: number, subscription: Record<string, unknown>) =>
  JSON.stringify({
    id,
    object: 'event',
    type,
    created,
    livemode: false,
    data: { object: { id: 'sub_1', object: 'subscription', ...subscription } },
  });

t.test("Stripe's webhook: billing_unavailable until STRIPE_WEBHOOK_SECRET is set", async (t) => {
  const res = await stripePost(
    svc,
    subscriptionEvent('evt_0', 'customer.subscription.updated', 1, { status: 'active' }),
  );
  t.equal(res.status, 503);
  t.equal(((await res.json()) as { error: { code: string } }).error.code, 'billing_unavailable');
});

t.test(
  "Stripe's webhook: a paid, late, then ended subscription sets the plan; stale, repeated and forged events change nothing",
  async (t) => {
    const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
    const plans = JSON.stringify({
      pro: { inbox_cap: 25, price_id: 'price_pro' },
      scale: { inbox_cap: 250, price_id: 'price_scale' },
    });
    const billed = await startService({ clock, env: { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PLANS: plans } });
    const { apiKey, spaceId } = await billed.space({ plan: 'none' });
    const status = async () => (await billed.call(apiKey, 'billing_status', {})).body;
    const post = async (body: string, options?: { secret?: string; at?: number }) => {
      const res = await stripePost(billed, body, options);
      return {
        status: res.status,
        body: (await res.json()) as { applied?: boolean; error?: { code: string; message: string } },
      };
    };
    const seconds = (iso: string) => Date.parse(iso) / 1000;
    const metadata = { space_id: spaceId, plan: 'pro' };

    const paid = subscriptionEvent('evt_paid', 'customer.subscription.updated', seconds('2026-11-21T09:59:00Z'), {
      status: 'active',
      metadata,
      current_period_end: seconds('2026-12-21T10:00:00Z'),
    });
    const forged = await post(paid, { secret: 'whsec_autre' });
    t.equal(forged.status, 400);
    t.match(forged.body.error, { code: 'invalid_argument', message: /Stripe-Signature/ });
    t.equal(
      (await post(paid, { at: clock.now() - 6 * 60_000 })).status,
      400,
      'a signature older than five minutes is a replay',
    );
    const unsigned = await fetch(`${billed.url}/billing/stripe`, { method: 'POST', body: paid });
    t.equal(unsigned.status, 400, 'no signature');
    t.same(
      await status(),
      {
        plan: 'none',
        status: 'none',
        current_period_end: null,
        inbox_cap: 1,
        inboxes_used: 0,
        notice:
          "Sans offre, l'espace reçoit, prépare des brouillons et n'écrit qu'à son humain : souscrivez une offre avec subscribe.",
      },
      'nothing changed',
    );

    const pending = subscriptionEvent('evt_new', 'customer.subscription.created', seconds('2026-11-21T09:58:00Z'), {
      status: 'incomplete',
      metadata,
    });
    t.same((await post(pending)).body, { received: true, applied: false }, 'not paid yet: nothing to apply');
    t.same((await post(paid)).body, { received: true, applied: true });
    t.same(await status(), {
      plan: 'pro',
      status: 'active',
      current_period_end: '2026-12-21T10:00:00.000Z',
      inbox_cap: 25,
      inboxes_used: 0,
      notice: null,
    });
    t.same((await post(paid)).body, { received: true, applied: false }, 'Stripe retrying the same event');

    // Newer API versions give the period on the subscription's items.
    const late = subscriptionEvent('evt_late', 'customer.subscription.updated', seconds('2026-12-21T10:05:00Z'), {
      status: 'past_due',
      metadata,
      items: { data: [{ current_period_end: seconds('2027-01-21T10:00:00Z'), price: { id: 'price_pro' } }] },
    });
    t.same((await post(late)).body, { received: true, applied: true });
    t.same(
      await status(),
      {
        plan: 'pro',
        status: 'past_due',
        current_period_end: '2027-01-21T10:00:00.000Z',
        inbox_cap: 25,
        inboxes_used: 0,
        notice:
          "Le dernier paiement a échoué : l'offre reste active pendant les relances du prestataire ; faites régler l'humain de l'espace.",
      },
      'the plan stays while Stripe retries',
    );
    const stale = subscriptionEvent('evt_stale', 'customer.subscription.updated', seconds('2026-11-21T09:59:30Z'), {
      status: 'canceled',
      metadata,
    });
    t.same(
      (await post(stale)).body,
      { received: true, applied: false },
      'an event older than the last applied arrives late',
    );
    t.equal((await status()).status, 'past_due');

    const ended = subscriptionEvent('evt_end', 'customer.subscription.deleted', seconds('2027-01-25T10:00:00Z'), {
      status: 'canceled',
      metadata,
    });
    t.same((await post(ended)).body, { received: true, applied: true });
    t.same(await status(), {
      plan: 'none',
      status: 'cancelled',
      current_period_end: null,
      inbox_cap: 1,
      inboxes_used: 0,
      notice:
        "Sans offre, l'espace reçoit, prépare des brouillons et n'écrit qu'à son humain : souscrivez une offre avec subscribe.",
    });
    await billed.call(apiKey, 'create_inbox', { username: `seule-${spaceId.slice(-8)}`, display_name: 'Seule' });
    t.equal(
      (await billed.call(apiKey, 'create_inbox', { username: `deux-${spaceId.slice(-8)}`, display_name: 'Deux' })).body
        .error?.code,
      'payment_required',
    );

    const lines = (await billed.call(apiKey, 'list_events', {})).body.events.filter(
      (l: { kind: string }) => l.kind === 'billing.updated',
    );
    t.equal(lines.length, 3, 'one journal line per applied event');
    t.match(
      lines.map((l: { text: string }) => l.text),
      [/Fin de l'abonnement/, /Paiement en retard pour l'offre « pro »/, /Abonnement actif : offre « pro »/],
    );
    t.match(lines[0], { actor: { kind: 'service' } });
  },
);

t.test("Stripe's webhook: the plan from the price, other events, unknown spaces and plans", async (t) => {
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  const plans = JSON.stringify({
    pro: { inbox_cap: 25, price_id: 'price_pro' },
    scale: { inbox_cap: 250, price_id: 'price_scale' },
  });
  const billed = await startService({ clock, env: { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PLANS: plans } });
  const { apiKey, spaceId } = await billed.space({ plan: 'none' });
  const now = clock.now() / 1000;
  const post = async (body: string) => {
    const res = await stripePost(billed, body);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const byPrice = subscriptionEvent('evt_a', 'customer.subscription.created', now, {
    status: 'active',
    metadata: { space_id: spaceId },
    items: { data: [{ price: { id: 'price_scale' } }] },
  });
  t.same((await post(byPrice)).body, { received: true, applied: true });
  t.equal(
    (await billed.call(apiKey, 'billing_status', {})).body.plan,
    'scale',
    'no plan in the metadata: the price says it',
  );

  const invoice = JSON.stringify({
    id: 'evt_b',
    type: 'invoice.paid',
    created: now,
    data: { object: { id: 'in_1', object: 'invoice' } },
  });
  t.same((await post(invoice)).body, { received: true, applied: false }, 'other events are acknowledged');
  const erased = subscriptionEvent('evt_c', 'customer.subscription.deleted', now, {
    status: 'canceled',
    metadata: { space_id: 'spc_01m83pph00b8f4027682', plan: 'pro' },
  });
  t.same((await post(erased)).body, { received: true, applied: false }, 'a space erased since: nothing left to bill');
  const foreign = subscriptionEvent('evt_d', 'customer.subscription.updated', now, { status: 'active', metadata: {} });
  t.same((await post(foreign)).body, { received: true, applied: false }, 'a subscription that is not a space’s');

  const unknown = subscriptionEvent('evt_e', 'customer.subscription.updated', now + 1, {
    status: 'active',
    metadata: { space_id: spaceId, plan: 'platine' },
    items: { data: [{ price: { id: 'price_old' } }] },
  });
  const refused = await post(unknown);
  t.equal(refused.status, 503, 'a paid plan no longer in PLANS: Stripe retries while the operator puts it back');
  t.match(refused.body, { error: { code: 'billing_unavailable' } });
  t.equal((await billed.call(apiKey, 'billing_status', {})).body.plan, 'scale', 'unchanged');
  const garbled = await post('{"id": ');
  t.equal(garbled.status, 400, 'a signed body that is not JSON');
});

const target = await testRedisTarget();
t.test(
  'mailbox admin set-plan: sets the plan, journaled by the service',
  { skip: !target.url && 'the CLI opens one node' },
  async (t) => {
    const { apiKey, spaceId } = await svc.space({ plan: 'none' });
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      env: { REDIS_URL: target.url ?? undefined, LOG_LEVEL: 'silent' },
      out: (l: string) => out.push(l),
      err: (l: string) => err.push(l),
    };
    t.equal(await runCli(['admin', 'set-plan', spaceId, 'scale'], io), 0);
    t.same(JSON.parse(out[0]!), { space_id: spaceId, plan: 'scale' });
    t.equal((await svc.call(apiKey, 'billing_status', {})).body.plan, 'scale');
    const line = (await svc.call(apiKey, 'list_events', {})).body.events.find(
      (l: { kind: string }) => l.kind === 'plan.set',
    );
    t.match(line, { actor: { kind: 'service' }, text: /scale/ });
    t.equal(await runCli(['admin', 'set-plan', spaceId, 'platine'], io), 2);
    t.equal(await runCli(['admin', 'set-plan', 'spc_01m83pph00b8f4027682', 'pro'], io), 1, 'no such space');
    t.match(err.join('\n'), /unknown plan "platine"[\s\S]*not_found/);
  },
);
