// Seeds a space for the send benchmark (built sources under dist/): a paying, verified space whose
// common-domain inbox was created 40 days ago (warm-up finished), and a body sending a test message
// to the space's own human (no duplicate rule, no plan or domain needed). Prints the API key.
import { writeFileSync } from 'node:fs';
import { ManualClock } from '../dist/src/clock.js';
import { loadConfig } from '../dist/src/config.js';
import { createRuntime } from '../dist/src/runtime.js';
import { authenticate, createSpace } from '../dist/actors/space.js';
import { createInbox } from '../dist/actors/inbox.js';

const config = loadConfig(process.env);
const rt = createRuntime(config, { clock: new ManualClock(Date.now() - 40 * 24 * 3600 * 1000) });
const human = 'humain@bench.test';
const space = await createSpace(rt, { human, plan: 'bench', verified: true });
const access = await authenticate(rt, space.api_key);
const inbox = await createInbox(rt, access, {
  username: `bench-${Date.now().toString(36)}`,
  domain: config.commonDomain,
  shared: true,
  display_name: 'Banc',
});
const body = {
  inbox_id: inbox.id,
  to: human,
  subject: 'Point hebdomadaire',
  text: 'Bonjour,\nvoici le point de la semaine.\n'.repeat(8),
  test: true,
};
writeFileSync(process.argv[2], JSON.stringify(body));
process.stdout.write(space.api_key + '\n');
rt.redis.disconnect();
