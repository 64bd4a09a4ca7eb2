/** Limits decided inside one script hold under concurrent calls from several front ends. */
import t from 'tap';
import { startService } from '../helpers/service.js';

t.test('30 parallel create_key never exceed 20 active keys', async (t) => {
  const a = await startService();
  const b = await startService();
  const { apiKey } = await a.space();
  const results = await Promise.all(
    Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).call(apiKey, 'create_key', { name: `parallèle-${i}` })),
  );
  const created = results.filter((r) => r.status === 200).length;
  const refused = results.filter((r) => r.body.error?.code === 'key_limit').length;
  t.equal(created, 19, 'the admin key plus 19 new ones');
  t.equal(refused, 11);
  t.equal((await a.call(apiKey, 'list_keys')).body.keys.length, 20);
});

t.test('30 parallel create_key with one name: one wins', async (t) => {
  const svc = await startService();
  const { apiKey } = await svc.space();
  const results = await Promise.all(Array.from({ length: 30 }, () => svc.call(apiKey, 'create_key', { name: 'même' })));
  t.equal(results.filter((r) => r.status === 200).length, 1);
  t.equal(results.filter((r) => r.body.error?.code === 'key_name_taken').length, 29);
});
