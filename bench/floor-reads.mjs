// The floor of the reads agents poll (bench/reads.sh runs it beside the project, same Redis, same
// data): the project's own HTTP reading and replying (src/http/io.ts) and Redis connection
// (src/redis/connect.ts) doing get_thread's and list_threads' Redis reads and nothing else: one read
// for the key, then the thread and its message ids, then the 20 message hashes in one pipeline (get_thread);
// the 50 newest thread ids, then their hashes in one pipeline (list_threads); the raw hashes serialised
// as they come. No views, no checks, no cursor. Needs REDIS_URL, PORT, SPACE_ID and THREAD_ID.
import { createRedis } from '../dist/src/redis/connect.js';
import { spaceKeys } from '../dist/src/redis/keys.js';
import { bearerOf, jsonReply, readBody, readRequest, send } from '../dist/src/http/io.js';
import { chooseEngine } from '../dist/src/http/engine.js';

const redis = createRedis({ url: process.env.REDIS_URL });
const keys = spaceKeys(process.env.SPACE_ID);
const threadId = process.env.THREAD_ID;

const hashes = async (ids, key) => {
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.hgetall(key(id));
  return (await pipeline.exec()).map(([, value]) => value);
};
const reads = {
  async get_thread() {
    const [thread, ids] = await Promise.all([
      redis.hgetall(keys.thread(threadId)),
      redis.zrangebylex(keys.threadMessages(threadId), '-', '+', 'LIMIT', 0, 51),
    ]);
    return { messages: await hashes(ids, keys.message), thread };
  },
  async list_threads() {
    const ids = await redis.zrevrangebyscore(keys.threads, '+inf', '-inf', 'LIMIT', 0, 51);
    return { items: await hashes(ids.slice(0, 50), keys.thread) };
  },
};

const app = chooseEngine(process.env.HTTP_ENGINE || 'auto').engine.App();
for (const [tool, read] of Object.entries(reads)) {
  app.post(`/v1/${tool}`, (res, req) => {
    const request = readRequest(res, req);
    readBody(res, 1 << 20).then(async () => {
      await redis.hget(keys.space, bearerOf(request.headers) ?? '');
      send(res, request, jsonReply(200, await read()));
    });
  });
}
app.listen('127.0.0.1', Number(process.env.PORT), (socket) => {
  if (!socket) process.exit(1);
});
