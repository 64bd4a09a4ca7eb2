/**
 * The idempotency key on the wire: the `Idempotency-Key` header is the body's `idempotency_key`, and a
 * `__proto__` key in a body is an ordinary unknown parameter, never a hidden one that escapes the
 * content hash (over HTTP and over MCP).
 */
import t from 'tap';
import { MASTER_KEY } from '../helpers/domains.js';
import { inboxState, recipient, sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';

const svc = await startService({ clock: mondayMorning(), env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
const s = await sender(svc);

/** POST /v1/send_email with a raw body (a JSON text, so `__proto__` goes as written) and extra headers. */
async function post(body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.url}/v1/send_email`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, body: await res.json() };
}

const message = (to: string, extra: Record<string, unknown> = {}) => ({
  inbox_id: s.inboxId,
  to,
  subject: 'Bonjour',
  text: 'Bonjour,\nune proposition.',
  ...extra,
});

t.test('the Idempotency-Key header alone is the key: a retry replays instead of duplicating', async (t) => {
  const to = recipient();
  const first = await post(JSON.stringify(message(to)), { 'idempotency-key': 'entete-1' });
  t.equal(first.status, 200);
  t.equal(first.body.replayed, false);
  const before = await inboxState(svc, s);
  const retry = await post(JSON.stringify(message(to)), { 'idempotency-key': 'entete-1' });
  t.equal(retry.status, 200);
  t.equal(retry.body.replayed, true);
  t.equal(retry.body.message.id, first.body.message.id);
  t.same(await inboxState(svc, s), before, 'nothing new written');
  const bodyField = await post(JSON.stringify(message(to, { idempotency_key: 'entete-1' })));
  t.equal(bodyField.body.message.id, first.body.message.id, 'the header and the body field are one key');
  const conflict = await post(JSON.stringify(message(recipient())), { 'idempotency-key': 'entete-1' });
  t.equal(conflict.body.error.code, 'idempotency_conflict');
});

t.test('header and body field: equal is fine, different is invalid_argument naming idempotency_key', async (t) => {
  const to = recipient();
  const both = await post(JSON.stringify(message(to, { idempotency_key: 'meme-cle' })), {
    'idempotency-key': 'meme-cle',
  });
  t.equal(both.status, 200);
  t.equal(both.body.replayed, false);
  const before = await inboxState(svc, s);
  const differ = await post(JSON.stringify(message(recipient(), { idempotency_key: 'une-cle' })), {
    'idempotency-key': 'autre-cle',
  });
  t.equal(differ.status, 400);
  t.equal(differ.body.error.code, 'invalid_argument');
  t.same(differ.body.error.hint, { parameter: 'idempotency_key' });
  t.match(differ.body.error.message, /Idempotency-Key/);
  t.same(await inboxState(svc, s), before, 'nothing written');
  const nullField = await post(JSON.stringify(message(to, { idempotency_key: null })), {
    'idempotency-key': 'meme-cle',
  });
  t.equal(nullField.body.replayed, true, 'a null field is absent: the header is used');
  const empty = await post(JSON.stringify(message(recipient())), { 'idempotency-key': '' });
  t.same(empty.body.error?.hint, { parameter: 'idempotency_key' }, 'an empty header is checked like the field');
  const otherTool = await fetch(`${svc.url}/v1/get_settings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.apiKey}`, 'idempotency-key': 'x' },
  });
  t.equal(otherTool.status, 200, 'a tool without idempotency_key ignores the header');
});

t.test('__proto__ in a body is an unknown parameter, not a way around the content hash', async (t) => {
  const to = recipient();
  const first = await post(JSON.stringify(message(to, { idempotency_key: 'proto-1' })));
  t.equal(first.status, 200);
  const before = await inboxState(svc, s);
  const sneaky = `{"__proto__": {"subject": "Autre chose"}, ${JSON.stringify(message(to, { idempotency_key: 'proto-1' })).slice(1)}`;
  const res = await post(sneaky);
  t.equal(res.status, 400, 'not replayed');
  t.equal(res.body.error.code, 'invalid_argument');
  t.same(res.body.error.hint, { parameter: '__proto__' });
  t.same(await inboxState(svc, s), before, 'nothing written');
  const nested = await post(`{"metadata": {"__proto__": {"crm": 1}}, ${JSON.stringify(message(recipient())).slice(1)}`);
  t.equal(nested.status, 200, 'inside free metadata it is an ordinary field');
  t.same(nested.body.message.metadata, { ['__proto__']: { crm: 1 } });
});

t.test('over MCP too, __proto__ in arguments is an unknown parameter', async (t) => {
  const client = await svc.mcp(s.apiKey);
  const to = recipient();
  const first = await client.callTool({ name: 'send_email', arguments: message(to, { idempotency_key: 'proto-mcp' }) });
  t.notOk(first.isError);
  const before = await inboxState(svc, s);
  const args = JSON.parse(
    `{"__proto__": {"subject": "Autre chose"}, ${JSON.stringify(message(to, { idempotency_key: 'proto-mcp' })).slice(1)}`,
  );
  const res = await client.callTool({ name: 'send_email', arguments: args });
  t.equal(res.isError, true, 'not replayed');
  const body = JSON.parse((res.content as { text: string }[])[1]!.text);
  t.equal(body.error.code, 'invalid_argument');
  t.same(body.error.hint, { parameter: '__proto__' });
  t.same(await inboxState(svc, s), before, 'nothing written');
});
