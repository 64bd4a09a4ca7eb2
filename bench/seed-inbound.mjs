// Seeds the inbound benchmark (built sources under dist/): a verified space with one inbox on the
// common domain, whose address is the benchmark's recipient (`<username>@<COMMON_DOMAIN>`). Prints one
// line for bench/inbound.sh: the Redis keys it counts afterwards (the space's event stream, its thread
// index, the prefix of its thread hashes) and how many events the seeding itself wrote.
import { loadConfig } from '../dist/src/config.js';
import { createRuntime } from '../dist/src/runtime.js';
import { spaceKeys } from '../dist/src/redis/keys.js';
import { authenticate, createSpace } from '../dist/actors/space.js';
import { createInbox } from '../dist/actors/inbox.js';

const username = process.argv[2];
const config = loadConfig(process.env);
const rt = createRuntime(config);
const space = await createSpace(rt, { human: 'humain@bench.test', plan: 'bench', verified: true });
const access = await authenticate(rt, space.api_key);
await createInbox(rt, access, { username, domain: config.commonDomain, shared: true, display_name: 'Banc' });
const keys = spaceKeys(space.space_id);
process.stdout.write(`${keys.events} ${keys.threads} ${keys.thread('')} ${await rt.redis.xlen(keys.events)}\n`);
rt.redis.disconnect();
