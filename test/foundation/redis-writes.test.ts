/** src/redis/connect.ts: the commands one tick issues leave in one write, in order, on every node. */
import t from 'tap';
import { Cluster, type Redis } from 'ioredis';
import { clusterMode, testRedis } from '../helpers/redis.js';

const nodesOf = (client: Redis | Cluster): Redis[] => (client instanceof Cluster ? client.nodes('master') : [client]);

t.test('one tick of commands is buffered on the corked socket, then written at once, in order', async (t) => {
  const client = await testRedis();
  await client.ping();
  const nodes = nodesOf(client);
  await Promise.all(nodes.map((node) => node.ping()));
  for (const node of nodes) {
    const socket = node.stream;
    // ECHO: no key, so each node of a cluster answers it (no MOVED); replies pair with commands in order.
    const echoes = Array.from({ length: 50 }, (_, i) => node.echo(`n${i}`));
    t.equal(socket.writableCorked, 1, 'corked at the first write of the tick');
    t.ok(socket.writableLength > 0, 'the 50 commands wait in the socket buffer');
    t.same(
      await Promise.all(echoes),
      Array.from({ length: 50 }, (_, i) => `n${i}`),
      'each answer to its command, in order',
    );
    t.equal(socket.writableCorked, 0, 'uncorked on the next tick');
  }
});

// A cluster does not reconnect a dropped node: its pool makes a new instance, hooked like the first ones.
const reconnect = {
  skip: clusterMode() ? 'a cluster replaces a dropped node (new instances are covered above)' : false,
};
t.test('a reconnected connection coalesces its writes too', reconnect, async (t) => {
  const client = await testRedis();
  await client.ping();
  const node = nodesOf(client)[0]!;
  const before = node.stream;
  node.disconnect(true);
  while (node.stream === before || node.status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 10));
  t.not(node.stream, before, 'a new socket');
  const pings = [node.ping(), node.ping()];
  t.equal(node.stream.writableCorked, 1);
  t.same(await Promise.all(pings), ['PONG', 'PONG']);
});
