/**
 * Proof that `npm run test:cluster` really runs on a 3-primary Redis Cluster and that spaces spread
 * over slots, so the rest of the suite exercises cross-slot routing. A plain `npm test` only counts it.
 */
import t from 'tap';
import { Cluster } from 'ioredis';
import { spaceKeys } from '../../src/redis/keys.js';
import { clusterMode } from '../helpers/redis.js';
import { startService } from '../helpers/service.js';

t.test('the cluster run uses 3 primaries and spreads spaces over slots', async (t) => {
  if (!clusterMode()) {
    t.pass('single-node run: these checks run under npm run test:cluster');
    return;
  }
  const svc = await startService();
  t.ok(svc.rt.redis instanceof Cluster, 'the runtime holds a Cluster client');
  const cluster = svc.rt.redis as Cluster;

  const slots: number[] = [];
  for (let i = 0; i < 6; i++) {
    const { spaceId, apiKey } = await svc.space();
    slots.push(Number(await cluster.call('CLUSTER', 'KEYSLOT', spaceKeys(spaceId).space)));
    // A script-backed call per space: authenticate and list_keys run on whichever primary owns it.
    const res = await svc.call(apiKey, 'list_keys');
    t.equal(res.status, 200, JSON.stringify(res.body));
  }
  t.ok(new Set(slots).size > 1, `spaces in different slots: ${slots.join(', ')}`);

  // After the commands above the client has loaded the slot map.
  t.equal(cluster.nodes('master').length, 3, 'ioredis sees 3 masters');
  const flags = String(await cluster.call('CLUSTER', 'NODES'))
    .trim()
    .split('\n')
    .map((line) => line.split(' ')[2]!.split(','));
  t.equal(flags.filter((f) => f.includes('master')).length, 3, 'CLUSTER NODES lists 3 masters');
});
