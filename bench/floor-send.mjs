// send_email's floor: the project's own HTTP reading and replying (src/http/io.ts) and Redis
// connection (src/redis/connect.ts, writes coalesced) doing a send's plumbing and nothing else:
// the three sequential steps of five commands (an authentication script, three reads issued
// together, a queue script given the real one's 21 keys and about as many arguments: 110 against
// 108) with scripts that decide nothing, and a reply of the real one's size. bench/send.sh runs it
// beside the project: what the stack alone allows on the same core, under the same load. Needs
// REDIS_URL and PORT; HTTP_ENGINE as the project (src/http/engine.ts), so both run on the same engine.
import { createHash } from 'node:crypto';
import { createRedis } from '../dist/src/redis/connect.js';
import { bearerOf, jsonReply, parseJson, readBody, readRequest, send } from '../dist/src/http/io.js';
import { chooseEngine } from '../dist/src/http/engine.js';

const redis = createRedis({ url: process.env.REDIS_URL });
const script = async (source) => {
  await redis.script('load', source);
  return createHash('sha1').update(source).digest('hex');
};
const authenticate = await script(
  `redis.call('HGET', KEYS[1], ARGV[1]) return '{"space":{"id":"spc_floor","verified":true},"key":{"id":"key_floor","permissions":["send"]}}'`,
);
const queue = await script(
  `redis.call('HGET', KEYS[2], 'status') redis.call('HSET', KEYS[12], 'status', 'queued') return '{"status":"queued","slot":1,"wake":false,"webhook":false,"message_count":1,"inbox":{}}'`,
);
const keys = Array.from({ length: 21 }, (_, i) => `{spc_floor}:${i}`);
const args = Array.from({ length: 110 }, (_, i) => `argument ${i} of a typical length`);
// The real reply to bench/seed.mjs's body is 1.7 KB: a message of 18 fields, a thread of 13, an inbox of 14.
const reply = {
  status: 'queued',
  estimated_send_at: new Date().toISOString(),
  replayed: false,
  dry_run: false,
  message: {},
  thread: {},
  inbox: {},
};
for (const [view, fields] of [
  ['message', 18],
  ['thread', 13],
  ['inbox', 14],
]) {
  for (let i = 0; i < fields; i++) reply[view][`field_${i}`] = 'a value of twenty-two';
}

chooseEngine(process.env.HTTP_ENGINE || 'auto')
  .engine.App()
  .post('/v1/send_email', (res, req) => {
    const request = readRequest(res, req);
    readBody(res, 1 << 20).then(async (body) => {
      const input = parseJson(body);
      JSON.parse(await redis.evalsha(authenticate, 1, '{spc_floor}:keys', bearerOf(request.headers) ?? ''));
      await Promise.all([
        redis.hmget(keys[1], 'id', 'status', 'shared'),
        redis.hget('{dead:0}', input.to),
        redis.hget('{claim:0}', input.to),
      ]);
      JSON.parse(await redis.evalsha(queue, keys.length, ...keys, ...args));
      send(res, request, jsonReply(200, reply));
    });
  })
  .listen('127.0.0.1', Number(process.env.PORT), (socket) => {
    if (!socket) process.exit(1);
  });
