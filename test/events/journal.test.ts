/**
 * list_events, the journal complete: every write tool writes a line naming its actor, mail happenings
 * are the service's, and every filter (day, inbox, thread, message, campaign, audience, contact, domain)
 * reads exactly the lines that touch its object.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { resumeInbox, suspendInbox } from '../../actors/inbox.js';
import { lineArgs, prepareLine, type JournalRefs } from '../../actors/journal.js';
import * as spaceLua from '../../actors/bindings/space.generated.js';
import { ManualClock } from '../../src/clock.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { TOOLS } from '../../src/tools/index.js';
import { EXAMPLES } from '../helpers/examples.js';
import { startService, type TestService } from '../helpers/service.js';

const MASTER_KEY = randomBytes(32).toString('base64');
const svc = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY } });

const lineIds = async (s: TestService, apiKey: string): Promise<Set<string>> =>
  new Set((await s.call(apiKey, 'list_events', { limit: 200 })).body.events.map((e: { id: string }) => e.id));

t.test('every write tool writes a journal line naming its author', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  for (const tool of TOOLS.filter((candidate) => candidate.effect !== 'read-only')) {
    const example = EXAMPLES[tool.name];
    if (!example) continue; // test/foundation/mcp.test.ts asks every tool for one
    const args = await example({ svc, spaceId, apiKey });
    const before = await lineIds(svc, apiKey);
    const res = await svc.call(apiKey, tool.name, args);
    t.equal(res.status, 200, `${tool.name}: ${JSON.stringify(res.body.error ?? 'ok')}`);
    const lines = (await svc.call(apiKey, 'list_events', { limit: 200 })).body.events.filter(
      (e: { id: string }) => !before.has(e.id),
    );
    t.ok(lines.length >= 1, `${tool.name} journals what it did`);
    t.ok(
      lines.some((e: any) => e.actor.kind === 'agent' && e.actor.name === 'admin' && e.actor.you),
      `${tool.name}: the calling key is the actor`,
    );
    t.ok(
      lines.every((e: any) => e.text && !e.text.includes('whsec_') && !e.text.includes('mbx_')),
      `${tool.name}: a French text without secret`,
    );
  }
});

t.test('mail happenings are the service’s: suspension, resumption; the reader is not their author', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const box = await svc.call(apiKey, 'create_inbox', {
    username: `dj-${randomBytes(3).toString('hex')}`,
    display_name: 'DJ',
  });
  await suspendInbox(svc.rt, spaceId, box.body.id, 'trop de plaintes');
  await resumeInbox(svc.rt, spaceId, box.body.id);
  const history = await svc.call(apiKey, 'list_events', { inbox_id: box.body.id });
  t.same(
    history.body.events.map((e: any) => [e.kind, e.actor.kind, e.actor.you]),
    [
      ['inbox.resumed', 'service', false],
      ['inbox.suspended', 'service', false],
      ['inbox.created', 'agent', true],
    ],
  );
  t.match(
    history.body.events[1].text,
    /^Suspension de la boîte « dj-[0-9a-f]+@agents\.mailbox\.localhost » : trop de plaintes$/,
  );
});

t.test('each object filter reads the lines touching that object, and only them', async (t) => {
  const clock = new ManualClock(Date.parse('2026-11-23T09:00:00.000Z'));
  const dated = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
  const { apiKey, spaceId, keyId } = await dated.space({ plan: 'pro' });
  const keys = spaceKeys(spaceId);
  /**
   * A line touching these objects, written by a real behaviour (revoking a key) with the refs that the
   * emitters of threads, messages, campaigns and audiences give theirs.
   */
  const line = async (refs: JournalRefs): Promise<string> => {
    const victim = await dated.key(apiKey, { name: `k-${randomBytes(3).toString('hex')}`, permissions: ['read'] });
    const prepared = prepareLine(dated.rt, 'key.revoked', { kind: 'agent', name: 'admin', key_id: keyId }, refs, {});
    await spaceLua.revokeKey(
      dated.rt.scripts,
      {
        keys: keys.keys,
        keyNames: keys.keyNames,
        auth: keys.auth,
        revokedKeys: keys.revokedKeys,
        keyUse: keys.keyUse,
        journal: keys.journal,
        journalIndex: keys.journalIndex,
      },
      { keyId: victim.keyId, callerKeyId: keyId, ...lineArgs(prepared) },
    );
    clock.advance(1000);
    return prepared.id;
  };
  const box = (
    await dated.call(apiKey, 'create_inbox', { username: `f-${randomBytes(3).toString('hex')}`, display_name: 'F' })
  ).body.id;
  const refsA = {
    inbox_id: box,
    thread_id: 'thr_01m7ye55ww542679e334',
    message_id: 'msg_01m7ye55ww542679e334',
    contact: 'Alice@Exemple.fr',
  };
  const refsB = {
    campaign_id: 'cmp_01m7ye55ww542679e334',
    audience_id: 'aud_01m7ye55ww542679e334',
    contact: 'bob@exemple.fr',
    domain: 'exemple.fr',
  };
  // A message's lines are found through its thread (actors/journal.ts): the message is stored, as a real one is.
  await dated.rt.redis.hset(keys.message(refsA.message_id), {
    id: refsA.message_id,
    thread_id: refsA.thread_id,
    inbox_id: box,
  });
  const a1 = await line(refsA);
  const b1 = await line(refsB);
  clock.set('2026-11-24T09:00:00.000Z');
  const a2 = await line({ ...refsA, message_id: 'msg_01m7ye55ww542679e335' });
  const b2 = await line({ ...refsB, audience_id: 'aud_01m7ye55ww542679e335', contact: 'ALICE@exemple.fr' });

  const ids = async (body: Record<string, unknown>) =>
    (await dated.call(apiKey, 'list_events', body)).body.events.map((e: { id: string }) => e.id);
  t.same(await ids({ thread_id: refsA.thread_id }), [a2, a1], 'thread');
  t.same(await ids({ message_id: refsA.message_id }), [a1], 'message');
  t.same(await ids({ campaign_id: refsB.campaign_id }), [b2, b1], 'campaign');
  t.same(await ids({ audience_id: refsB.audience_id }), [b1], 'audience');
  t.same(await ids({ contact: 'alice@exemple.fr' }), [b2, a2, a1], 'contact, whatever its case');
  t.same(await ids({ domain: 'EXEMPLE.fr' }), [b2, b1], 'domain');
  const inbox = await ids({ inbox_id: box });
  t.same(inbox.slice(0, 2), [a2, a1], 'inbox: its lines, then its creation');
  t.equal(inbox.length, 3);
  const stranger = await dated.space();
  t.same(
    (await dated.call(stranger.apiKey, 'list_events', { inbox_id: box })).body.events,
    [],
    "another space's inbox: none of its lines",
  );
  const ours = (list: string[]) => list.filter((id) => [a1, a2, b1, b2].includes(id));
  t.same(ours(await ids({ day: '2026-11-24' })), [b2, a2], 'day (Paris)');
  t.same(ours(await ids({ day: '2026-11-23' })), [b1, a1]);
  const firstPage = await dated.call(apiKey, 'list_events', { contact: 'alice@exemple.fr', limit: 2 });
  const secondPage = await dated.call(apiKey, 'list_events', {
    contact: 'alice@exemple.fr',
    limit: 2,
    cursor: firstPage.body.next_cursor,
  });
  t.same(
    secondPage.body.events.map((e: { id: string }) => e.id),
    [a1],
    'a filter pages with its cursor',
  );
  t.same(
    (await dated.call(apiKey, 'list_events', { thread_id: refsA.thread_id, cursor: firstPage.body.next_cursor })).body
      .error.hint,
    { parameter: 'cursor' },
    'not another filter’s',
  );
  const line1 = (await dated.call(apiKey, 'list_events', { message_id: refsA.message_id })).body.events[0];
  t.match(line1, {
    inbox_id: box,
    thread_id: refsA.thread_id,
    message_id: refsA.message_id,
    contact: 'Alice@Exemple.fr',
    actor: { you: true },
  });

  const restricted = await dated.key(apiKey, { name: 'restreinte', permissions: ['read'], inbox_ids: [box] });
  const seen = await dated.call(restricted.apiKey, 'list_events', { contact: 'alice@exemple.fr' });
  t.same(
    seen.body.events.map((e: { id: string }) => e.id),
    [a2, a1],
    'a restricted key sees its inboxes’ lines only',
  );
});
