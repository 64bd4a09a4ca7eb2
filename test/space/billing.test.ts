/** billing_status, subscribe (not configured; the Stripe request), set-plan, payment_required. */
import t from 'tap';
import { setPlan } from '../../actors/space.js';
import { checkoutRequest } from '../../src/billing/stripe.js';
import { runCli } from '../../src/cli/main.js';
import { DEFAULT_PLANS } from '../../src/config.js';
import { testRedisTarget } from '../helpers/redis.js';
import { startService } from '../helpers/service.js';
import { startFakeStripe } from '../helpers/stripe.js';

const svc = await startService();

t.test('billing_status without plan, then with one', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'none' });
  const none = await svc.call(apiKey, 'billing_status', {});
  t.same(none.body, { plan: 'none', status: 'none', current_period_end: null, inbox_cap: 1, inboxes_used: 0 });
  await svc.call(apiKey, 'create_inbox', { username: `solo-${spaceId.slice(-8)}`, display_name: 'Solo' });
  const second = await svc.call(apiKey, 'create_inbox', { username: `duo-${spaceId.slice(-8)}`, display_name: 'Duo' });
  t.equal(second.status, 402);
  t.equal(second.body.error.code, 'payment_required', 'a second inbox needs a plan');
  await setPlan(svc.rt, spaceId, 'pro');
  const pro = await svc.call(apiKey, 'billing_status', {});
  t.same(pro.body, { plan: 'pro', status: 'active', current_period_end: null, inbox_cap: 25, inboxes_used: 1 });
  t.equal((await svc.call(apiKey, 'create_inbox', { username: `duo-${spaceId.slice(-8)}`, display_name: 'Duo' })).status, 200);
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
  const request = checkoutRequest('https://api.stripe.com/v1', 'sk_live_x', 'https://mailbox.exemple', 'spc_x', plan, 'h@exemple.fr');
  t.equal(request.url, 'https://api.stripe.com/v1/checkout/sessions');
  t.equal(request.init.method, 'POST');
  t.match(request.init.headers, { authorization: 'Bearer sk_live_x', 'content-type': 'application/x-www-form-urlencoded' });
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
  const billed = await startService({ env: { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_URL: stripe.url, PLANS: plans } });
  const { apiKey } = await billed.space();
  const res = await billed.call(apiKey, 'subscribe', { plan: 'pro' });
  t.same(res.body, { plan: 'pro', checkout_url: 'https://checkout.stripe.test/c/pay/cs_test_1' });
  t.equal((await billed.call(apiKey, 'subscribe', { plan: 'maison' })).body.error.code, 'billing_unavailable', 'a plan without a price is not sold online');
  stripe.failing = true;
  t.equal((await billed.call(apiKey, 'subscribe', { plan: 'pro' })).body.error.code, 'billing_unavailable');
});

const target = await testRedisTarget();
t.test('mailbox admin set-plan: sets the plan, journaled by the service', { skip: !target.url && 'the CLI opens one node' }, async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'none' });
  const out: string[] = [];
  const err: string[] = [];
  const io = { env: { REDIS_URL: target.url ?? undefined, LOG_LEVEL: 'silent' }, out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
  t.equal(await runCli(['admin', 'set-plan', spaceId, 'scale'], io), 0);
  t.same(JSON.parse(out[0]!), { space_id: spaceId, plan: 'scale' });
  t.equal((await svc.call(apiKey, 'billing_status', {})).body.plan, 'scale');
  const line = (await svc.call(apiKey, 'list_events', {})).body.events.find((l: { kind: string }) => l.kind === 'plan.set');
  t.match(line, { actor: { kind: 'service' }, text: /scale/ });
  t.equal(await runCli(['admin', 'set-plan', spaceId, 'platine'], io), 2);
  t.equal(await runCli(['admin', 'set-plan', 'spc_01m83pph00b8f4027682', 'pro'], io), 1, 'no such space');
  t.match(err.join('\n'), /unknown plan "platine"[\s\S]*not_found/);
});
