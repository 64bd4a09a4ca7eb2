/**
 * The space's open realtime sockets (src/http/realtime.ts), counted in Redis so that every front end
 * shares the limits per key and per space (docs/operations.md, "Realtime sockets"). A socket holds a
 * place that ends by itself unless its front end pushes it on while the socket lives: a front end that
 * dies holding sockets frees their places within one lease, and nothing scans for them.
 */
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import type { Runtime } from '../src/runtime.js';
import * as spaceLua from './bindings/space.generated.js';

/** A socket as counted: its key (or connection) and its id, unique across front ends. */
export interface CountedSocket {
  keyId: string;
  socketId: string;
}

/** Counts the socket in, or refuses `socket_limit` (hint `scope` key or space, `max`) when its key or space is full. */
export async function openSocket(rt: Runtime, spaceId: string, socket: CountedSocket): Promise<void> {
  const { socketsPerKey, socketsPerSpace, socketLeaseMs } = rt.config.realtime;
  const keys = spaceKeys(spaceId);
  const now = rt.clock.now();
  await spaceLua.openSocket(
    rt.scripts,
    { spaceSockets: keys.sockets, keySockets: keys.keySockets(socket.keyId) },
    { socketId: socket.socketId, now, until: now + socketLeaseMs, perKey: socketsPerKey, perSpace: socketsPerSpace },
  );
}

/**
 * Pushes the places of a space's live sockets on by a lease. A place that lapsed meanwhile (Redis away
 * for a whole lease) is taken again: a living socket is always counted.
 */
export async function keepSockets(rt: Runtime, spaceId: string, sockets: readonly CountedSocket[]): Promise<void> {
  if (!sockets.length) return;
  const { socketLeaseMs } = rt.config.realtime;
  const keys = spaceKeys(spaceId);
  const ends = rt.clock.now() + socketLeaseMs;
  const pipeline = rt.redis.pipeline();
  for (const { keyId, socketId } of sockets)
    pipeline.zadd(keys.sockets, ends, socketId).zadd(keys.keySockets(keyId), ends, socketId);
  for (const key of new Set([keys.sockets, ...sockets.map((s) => keys.keySockets(s.keyId))]))
    pipeline.pexpire(key, socketLeaseMs);
  await execAll(pipeline);
}

/** Gives the socket's places back (it closed). */
export async function closeSocket(rt: Runtime, spaceId: string, socket: CountedSocket): Promise<void> {
  const keys = spaceKeys(spaceId);
  await execAll(
    rt.redis.pipeline().zrem(keys.sockets, socket.socketId).zrem(keys.keySockets(socket.keyId), socket.socketId),
  );
}
