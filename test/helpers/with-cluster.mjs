/**
 * `node test/helpers/with-cluster.mjs <command> [args...]`: runs the command (e.g. `tap`) against a
 * fresh 3-primary Redis Cluster. test/helpers/redis.ts reads MAILBOX_TEST_CLUSTER_NODES and connects
 * every test file to it; the cluster is stopped and its directory removed however the command ends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { startCluster } from './cluster.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node test/helpers/with-cluster.mjs <command> [args...]');
  process.exit(2);
}

const started = Date.now();
const cluster = await startCluster({ dir: mkdtempSync(join(tmpdir(), 'mbx-cluster-')) });
const nodes = cluster.nodes.map((n) => `${n.host}:${n.port}`).join(',');
console.error(`# redis cluster ${nodes} ready in ${Date.now() - started} ms`);

// Like `npm run`: the project's node_modules/.bin first, so `tap` is the pinned one.
const bin = resolve(import.meta.dirname, '../../node_modules/.bin');
const env = { ...process.env, MAILBOX_TEST_CLUSTER_NODES: nodes, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
const child = spawn(command, args, { stdio: 'inherit', env });

// Forward Ctrl-C / kill to the command and let it finish; its exit then stops the cluster.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));

const code = await new Promise((done) => {
  child.once('error', (err) => {
    console.error(`with-cluster: cannot run ${command}: ${err.message}`);
    done(127);
  });
  child.once('exit', (status, signal) => done(status ?? 128 + (constants.signals[signal] ?? 0)));
});
await cluster.stop();
process.exit(code);
