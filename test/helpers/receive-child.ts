/**
 * A process storing one received message that dies (SIGKILL, no cleanup) right after its first blob
 * write, before the script that writes the record: the crash case of docs/contract.md, Decision 10. Run with the
 * test process's own execArgv, so TypeScript loads the same way.
 */
import { receiveInbound } from '../../actors/inbound.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createRedis } from '../../src/redis/connect.js';
import { createRuntime } from '../../src/runtime.js';
import { composeRuntime } from '../../src/cli/compose.js';
import { dieAfterFirstPut } from './child.js';
import { receivedMail } from './mail.js';

const env = process.env;
const config = loadConfig(env);
const redis = createRedis({ url: env.CHILD_REDIS_URL || null, clusterNodes: config.redisClusterNodes });
const rt = composeRuntime(createRuntime(config, { redis, log: createLogger('error') }));
dieAfterFirstPut(rt);
await receiveInbound(
  rt,
  env.CHILD_SPACE!,
  { id: env.CHILD_INBOX!, address: env.CHILD_ADDRESS! },
  receivedMail({
    from: 'marie@destinataire.test',
    from_name: 'Marie',
    subject: 'Jamais écrit',
    text: 'Ci-joint.',
    attachments: [
      {
        filename: 'orphelin.csv',
        content_type: 'text/csv',
        content: Buffer.from(env.CHILD_CONTENT!),
        inline: false,
        content_id: null,
      },
    ],
  }),
);
process.exit(0);
