// Seeds a space for the reads benchmark (built sources under dist/), as bench/seed.mjs does for sends:
// THREADS threads opened by send_email (list_threads reads a page of 50), one of which gets replies up
// to 20 messages (get_thread reads them all). Writes the two request bodies into DIR and prints
// "<api key> <space id> <thread id>".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../dist/src/clock.js';
import { loadConfig } from '../dist/src/config.js';
import { createRuntime } from '../dist/src/runtime.js';
import { callTool } from '../dist/src/tools/dispatch.js';
import { authenticate, createSpace } from '../dist/actors/space.js';
import { createInbox } from '../dist/actors/inbox.js';

const THREADS = 60;
const THREAD_MESSAGES = 20;
const dir = process.argv[2];
const config = loadConfig(process.env);
const clock = new ManualClock(Date.now() - 40 * 24 * 3600 * 1000);
const rt = createRuntime(config, { clock });
const human = 'humain@bench.test';
const space = await createSpace(rt, { human, plan: 'bench', verified: true });
const access = await authenticate(rt, space.api_key);
const inbox = await createInbox(rt, access, {
  username: `bench-${Date.now().toString(36)}`,
  domain: config.commonDomain,
  shared: true,
  display_name: 'Banc',
});
const text = 'Bonjour,\nvoici le point de la semaine.\n'.repeat(8);
// The inbox's warm-up over (it ends within 30 days) before the first send.
clock.advance(30 * 24 * 3600 * 1000);
let threadId = null;
for (let i = 0; i < THREADS; i++) {
  const { output } = await callTool(rt, access, 'send_email', {
    inbox_id: inbox.id,
    to: human,
    subject: `Point hebdomadaire ${i}`,
    text,
    test: true,
  });
  threadId ??= output.thread.id;
}
for (let i = 1; i < THREAD_MESSAGES; i++) {
  clock.advance(9 * 3600 * 1000);
  await callTool(rt, access, 'reply_to_thread', { thread_id: threadId, text: `${text}Suite ${i}.\n` });
}
writeFileSync(join(dir, 'get_thread.json'), JSON.stringify({ thread_id: threadId }));
writeFileSync(join(dir, 'list_threads.json'), JSON.stringify({ limit: 50 }));
process.stdout.write(`${space.api_key} ${space.space_id} ${threadId}\n`);
rt.redis.disconnect();
