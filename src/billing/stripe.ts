/**
 * The payment provider behind subscribe and close_space: Stripe, when STRIPE_SECRET_KEY is set and a
 * plan names its price id (PLANS). Two calls only: a Checkout Session for a plan (the space id rides in
 * the subscription's metadata), and cancelling a space's subscriptions at closure. Without a provider
 * there is nothing to pay nor to cancel.
 */
import type { Config, Plan } from '../config.js';
import { MailboxError } from '../errors.js';
import type { BillingProvider } from '../ports.js';

const TIMEOUT_MS = 10_000;

export interface StripeRequest {
  url: string;
  init: RequestInit;
}

const auth = (secretKey: string) => ({ authorization: `Bearer ${secretKey}` });

/** The Checkout Session request (mode subscription), built apart so a test reads it without network. */
export function checkoutRequest(
  api: string,
  secretKey: string,
  baseUrl: string,
  spaceId: string,
  plan: Plan,
  email: string | null,
): StripeRequest {
  const form = new URLSearchParams({
    mode: 'subscription',
    'line_items[0][price]': plan.price_id ?? '',
    'line_items[0][quantity]': '1',
    client_reference_id: spaceId,
    'metadata[space_id]': spaceId,
    'metadata[plan]': plan.name,
    'subscription_data[metadata][space_id]': spaceId,
    'subscription_data[metadata][plan]': plan.name,
    success_url: `${baseUrl}/workspace?page=espace&paiement=ok`,
    cancel_url: `${baseUrl}/workspace?page=espace&paiement=annule`,
  });
  if (email) form.set('customer_email', email);
  return {
    url: `${api}/checkout/sessions`,
    init: {
      method: 'POST',
      headers: { ...auth(secretKey), 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
  };
}

/** The search for a space's live subscriptions (the metadata checkout put on them). */
const subscriptionSearchRequest = (api: string, secretKey: string, spaceId: string): StripeRequest => ({
  url: `${api}/subscriptions/search?${new URLSearchParams({ query: `metadata['space_id']:'${spaceId}' AND status:'active'` })}`,
  init: { method: 'GET', headers: auth(secretKey) },
});

/** Any failure of the provider (network, refusal, unexpected answer) is billing_unavailable; nothing changed on our side. */
async function call<T>(request: StripeRequest): Promise<T> {
  let response: Response;
  try {
    response = await fetch(request.url, { ...request.init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new MailboxError('billing_unavailable');
  }
  if (!response.ok) throw new MailboxError('billing_unavailable');
  return (await response.json()) as T;
}

function stripe(api: string, secretKey: string, baseUrl: string): BillingProvider {
  return {
    async checkoutUrl(spaceId, plan, email) {
      const session = await call<{ url?: string }>(checkoutRequest(api, secretKey, baseUrl, spaceId, plan, email));
      if (!session.url) throw new MailboxError('billing_unavailable');
      return session.url;
    },
    async cancelSubscriptions(spaceId) {
      const found = await call<{ data?: { id: string }[] }>(subscriptionSearchRequest(api, secretKey, spaceId));
      for (const subscription of found.data ?? []) {
        await call({
          url: `${api}/subscriptions/${encodeURIComponent(subscription.id)}`,
          init: { method: 'DELETE', headers: auth(secretKey) },
        });
      }
    },
  };
}

/** The configured provider, or null: subscribe answers billing_unavailable, closure has nothing to cancel. */
export const billingProvider = (config: Config): BillingProvider | null =>
  config.stripeSecretKey ? stripe(config.stripeApiUrl, config.stripeSecretKey, config.baseUrl) : null;
