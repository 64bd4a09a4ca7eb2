/**
 * A stand-in for Stripe's API on a loopback port (STRIPE_API_URL), answering what the adapter asks:
 * Checkout Sessions, the subscription search and cancellation. It records each request; `failing`
 * makes it answer 500, as a provider that does not confirm.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';

export interface FakeStripe {
  url: string;
  requests: { method: string; path: string; body: string; authorization: string | undefined }[];
  subscriptions: string[];
  failing: boolean;
}

const bodyOf = async (req: IncomingMessage): Promise<string> => {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
};

export async function startFakeStripe(): Promise<FakeStripe> {
  const fake: FakeStripe = { url: '', requests: [], subscriptions: [], failing: false };
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    fake.requests.push({ method: req.method!, path: req.url!, body, authorization: req.headers.authorization });
    const answer = (status: number, json: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    if (fake.failing) return answer(500, { error: { message: 'indisponible' } });
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions')
      return answer(200, { id: 'cs_test_1', url: 'https://checkout.stripe.test/c/pay/cs_test_1' });
    if (req.method === 'GET' && req.url!.startsWith('/v1/subscriptions/search'))
      return answer(200, { data: fake.subscriptions.map((id) => ({ id })) });
    if (req.method === 'DELETE' && req.url!.startsWith('/v1/subscriptions/'))
      return answer(200, { id: req.url!.split('/').pop(), status: 'canceled' });
    return answer(404, { error: { message: 'inconnu' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return fake;
}
