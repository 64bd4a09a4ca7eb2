/**
 * A loopback TCP proxy between the service's ioredis client and the test's redis-server, which can lose
 * a reply the way a dropped connection does: Redis ran the command, the client never heard back, and
 * ioredis sends the command again once it has reconnected (`autoResendUnfulfilledCommands`).
 * Used by test/foundation/lost-reply.test.ts.
 */
import { connect, createServer, type Socket } from 'node:net';
import t from 'tap';
import type { RedisTarget } from '../../src/redis/connect.js';

export interface RedisProxy {
  /** Where the service connects instead of Redis. */
  target: RedisTarget;
  /**
   * The next command whose bytes contain `marker` (a script's SHA1, for EVALSHA) reaches Redis, but its
   * reply is swallowed and the client's connection destroyed. `disarm` gives up waiting for it.
   */
  loseReplyTo(marker: string): void;
  disarm(): void;
  /** How many replies were lost so far. */
  lost: number;
}

export async function startRedisProxy(upstream: RedisTarget): Promise<RedisProxy> {
  if (!upstream.url) throw new Error('the lost-reply proxy needs a single redis-server');
  const upstreamUrl = upstream.url;
  let armed: string | null = null;
  const open = new Set<Socket>();

  const server = createServer((client) => {
    const redis = upstreamUrl.startsWith('redis://')
      ? connect(Number(new URL(upstreamUrl).port), '127.0.0.1')
      : connect(upstreamUrl.replace(/^unix:\/\//, ''));
    open.add(client).add(redis);
    // Set when this connection forwarded the armed command: its next reply is the one to lose.
    let losing = false;
    client.on('data', (chunk: Buffer) => {
      if (armed && chunk.includes(armed)) {
        losing = true;
        armed = null;
      }
      redis.write(chunk);
    });
    redis.on('data', (chunk: Buffer) => {
      if (!losing) {
        client.write(chunk);
        return;
      }
      losing = false;
      proxy.lost++;
      client.destroy();
      redis.destroy();
    });
    const close = () => {
      client.destroy();
      redis.destroy();
      open.delete(client);
      open.delete(redis);
    };
    client.on('close', close).on('error', close);
    redis.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of open) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const proxy: RedisProxy = {
    target: { url: `redis://127.0.0.1:${(server.address() as { port: number }).port}` },
    lost: 0,
    loseReplyTo(marker) {
      armed = marker;
    },
    disarm() {
      armed = null;
    },
  };
  return proxy;
}
