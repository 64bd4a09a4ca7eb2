/**
 * A space's address book at scale, hostile sizes generated here: 20,000 contacts of large fields.
 * add_contacts refuses (contact_limit, nothing written) a call that would take the space past
 * CONTACTS_PER_SPACE; list_contacts reads its page only, space-wide in address order through the
 * contacts' index (the bytes Redis sends for a page are measured), with a query looking at 1,000
 * contacts a call at most; a store written before the index gets it at its first space-wide listing.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { Cluster } from 'ioredis';
import { addContacts } from '../../actors/audience.js';
import { authenticate } from '../../actors/space.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { startService } from '../helpers/service.js';

const CAP = 20_000;
const svc = await startService({ env: { CONTACTS_PER_SPACE: String(CAP) } });

const codeOf = (res: { body: { error?: { code: string } } }) => res.body.error?.code;

/** Bytes the Redis server(s) of the file have sent to their clients so far. */
async function redisOutput(): Promise<number> {
  const client = svc.rt.redis;
  const nodes = client instanceof Cluster ? client.nodes('master') : [client];
  const infos = await Promise.all(nodes.map((node) => node.info('stats')));
  return infos.reduce((sum, info) => sum + Number(/total_net_output_bytes:(\d+)/.exec(info)![1]), 0);
}

/** The Redis bytes `call` made the server send (the file's tests run one at a time). */
async function bytesOf<T>(call: () => Promise<T>): Promise<{ result: T; bytes: number }> {
  const before = await redisOutput();
  const result = await call();
  return { result, bytes: (await redisOutput()) - before };
}

/** A contact whose four fields take 500 characters each: about 2 KB a contact. */
const heavyContact = (i: number) => ({
  email: `contact-${String(i).padStart(6, '0')}@exemple.test`,
  name: `Contact ${i}`,
  fields: Object.fromEntries(
    ['societe', 'ville', 'poste', 'note'].map((field) => [field, randomBytes(250).toString('hex')]),
  ),
});

/** A space with an audience holding `count` heavy contacts, added 1,000 a call through the actor. */
async function filled(count: number) {
  const s = await svc.space();
  const audienceId = (await svc.call(s.apiKey, 'create_audience', { name: 'Tout le monde' })).body.audience
    .id as string;
  const access = await authenticate(svc.rt, s.apiKey);
  for (let from = 0; from < count; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - from) }, (_, i) => heavyContact(from + i));
    const result = await addContacts(svc.rt, access, audienceId, batch);
    if (result.added !== batch.length) throw new Error(`added ${result.added} of ${batch.length}`);
  }
  return { ...s, audienceId };
}

const big = await filled(CAP - 10);

t.test(
  `at most ${CAP} contacts a space: a call that would pass it is refused whole; known contacts still join audiences`,
  async (t) => {
    const events = async () =>
      (await svc.call(big.apiKey, 'list_events', { audience_id: big.audienceId, limit: 200 })).body.events.length;
    const journalled = await events();
    const twenty = Array.from({ length: 20 }, (_, i) => ({ email: `nouveau-${i}@exemple.test` }));
    const refused = await svc.call(big.apiKey, 'add_contacts', { audience_id: big.audienceId, contacts: twenty });
    t.equal(refused.status, 409);
    t.same(refused.body.error.hint, { max: CAP, contacts: CAP - 10 });
    t.equal(codeOf(refused), 'contact_limit');
    t.match(refused.body.error.message, /rien n'a été ajouté/);
    const audience = (await svc.call(big.apiKey, 'list_audiences', {})).body.items[0];
    t.equal(audience.contact_count, CAP - 10, 'nothing written');
    t.equal(await events(), journalled, 'no journal line');

    const ten = await svc.call(big.apiKey, 'add_contacts', {
      audience_id: big.audienceId,
      contacts: twenty.slice(0, 10),
    });
    t.same(ten.body.added, 10, 'ten fit: the space is full');
    const one = await svc.call(big.apiKey, 'add_contacts', {
      audience_id: big.audienceId,
      contacts: [{ email: 'un-de-trop@exemple.test' }, { email: 'contact-000001@exemple.test' }],
    });
    t.equal(codeOf(one), 'contact_limit', 'one new address is one too many, whatever else the call holds');
    const skips = await svc.call(big.apiKey, 'add_contacts', {
      audience_id: big.audienceId,
      contacts: [{ email: 'contact-000001@exemple.test' }, { email: 'pas une adresse' }],
    });
    t.same(
      [skips.status, skips.body.added, skips.body.skipped.duplicate, skips.body.skipped.invalid],
      [200, 0, 1, 1],
      'duplicates and invalid addresses are skipped as ever',
    );
    const other = (await svc.call(big.apiKey, 'create_audience', { name: 'Relance' })).body.audience.id;
    const known = await svc.call(big.apiKey, 'add_contacts', {
      audience_id: other,
      contacts: [{ email: 'contact-000002@exemple.test', name: 'Nouveau nom' }, { email: 'nouveau-3@exemple.test' }],
    });
    t.same(
      [known.status, known.body.added],
      [200, 2],
      "the space's own contacts join another audience (and take a new name)",
    );
    t.equal(
      (await svc.call(big.apiKey, 'get_settings', {})).body.limits.contacts_per_space,
      CAP,
      'get_settings tells the limit',
    );
  },
);

t.test('a space-wide page of 20,000 large contacts reads its page only, in address order', async (t) => {
  const held = await svc.rt.redis.hlen(spaceKeys(big.spaceId).contacts);
  t.equal(held, CAP);
  const { result: first, bytes } = await bytesOf(() => svc.call(big.apiKey, 'list_contacts', { limit: 50 }));
  t.equal(first.status, 200);
  t.same(
    first.body.items.map((c: { email: string }) => c.email),
    Array.from({ length: 50 }, (_, i) => `contact-${String(i).padStart(6, '0')}@exemple.test`),
  );
  t.ok(bytes < 512 * 1024, `a page of 50 made Redis send ${bytes} bytes (the contacts weigh ${CAP * 2} KB)`);
  const second = await svc.call(big.apiKey, 'list_contacts', { limit: 200, cursor: first.body.next_cursor });
  t.equal(second.body.items[0].email, 'contact-000050@exemple.test', 'the next page starts after the cursor');
  t.same(
    second.body.items.map((c: { email: string }) => c.email),
    [...second.body.items.map((c: { email: string }) => c.email)].sort(),
    'sorted',
  );
  t.same(
    second.body.items[0].fields,
    (
      JSON.parse((await svc.rt.redis.hget(spaceKeys(big.spaceId).contacts, 'contact-000050@exemple.test'))!) as {
        fields: unknown;
      }
    ).fields,
    'with its fields',
  );

  const { result: pages, bytes: concurrent } = await bytesOf(() =>
    Promise.all(Array.from({ length: 30 }, () => svc.call(big.apiKey, 'list_contacts', { limit: 200 }))),
  );
  t.ok(
    pages.every((page) => page.status === 200 && page.body.items.length === 200),
    '30 pages at once',
  );
  t.ok(concurrent < 30 * 1024 * 1024, `30 pages of 200 made Redis send ${(concurrent / 1048576).toFixed(1)} MB`);

  const { result: audiencePage, bytes: audienceBytes } = await bytesOf(() =>
    svc.call(big.apiKey, 'list_contacts', { audience_id: big.audienceId, limit: 20 }),
  );
  t.equal(audiencePage.body.items.length, 20);
  t.ok(audienceBytes < 256 * 1024, `an audience's page of 20 made Redis send ${audienceBytes} bytes`);
});

t.test(
  'with a query, a call looks at 1,000 contacts at most: short pages with a cursor, until the match',
  async (t) => {
    const { result: miss, bytes } = await bytesOf(() =>
      svc.call(big.apiKey, 'list_contacts', { query: 'contact-019000' }),
    );
    t.same(miss.body.items, [], 'nothing among the first 1,000');
    t.type(miss.body.next_cursor, 'string', 'and a cursor to go on from');
    t.ok(bytes < 1000 * 2.5 * 1024, `it made Redis send ${(bytes / 1048576).toFixed(1)} MB`);
    let cursor: string | null = miss.body.next_cursor;
    let calls = 1;
    const found: string[] = [];
    while (cursor) {
      const page = await svc.call(big.apiKey, 'list_contacts', { query: 'contact-019000', cursor });
      found.push(...page.body.items.map((c: { email: string }) => c.email));
      cursor = page.body.next_cursor;
      calls++;
    }
    t.same(found, ['contact-019000@exemple.test'], 'found by following the cursors');
    t.ok(calls >= CAP / 1000 && calls <= CAP / 1000 + 1, `${calls} calls`);
    const audience = await svc.call(big.apiKey, 'list_contacts', { audience_id: big.audienceId, query: 'introuvable' });
    t.same([audience.body.items, typeof audience.body.next_cursor], [[], 'string'], "an audience's listing alike");
  },
);
