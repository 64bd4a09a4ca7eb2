// The webhook benchmark's receiver: an https server on loopback (uWebSockets.js over TLS, so the
// receiver costs little of the machine the sender is measured on) that answers 200 to every POST and,
// once `expected` requests have arrived, prints the deliveries per second between the first and the
// last, and how many of the sampled signatures (1 in 50, checked with standardwebhooks) failed.
// Usage: node bench/webhook-receiver.mjs <key.pem> <cert.pem> <secrets.json> <expected>
// The secrets file ({space id: whsec_...}) is read at the first check: webhooks are declared with this
// receiver's port, so it starts before them.
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { chooseEngine } from '../dist/src/http/engine.js';

// uWS itself (its SSLApp; node:http has no stand-in here): a Node no uWS build loads on cannot run this receiver.
const uws = chooseEngine('uws').engine;

const [keyFile, certFile, secretsFile, expected] = process.argv.slice(2);
let verifiers = null;
const verifier = (space) => {
  verifiers ??= new Map(
    Object.entries(JSON.parse(readFileSync(secretsFile, 'utf8'))).map(([id, secret]) => [id, new Webhook(secret)]),
  );
  return verifiers.get(space);
};
let count = 0;
let first = 0;
let sampled = 0;
let badSignatures = 0;

uws
  .SSLApp({ key_file_name: keyFile, cert_file_name: certFile })
  .post('/*', (res, req) => {
    const check = count % 50 === 49;
    const headers = check
      ? {
          'webhook-id': req.getHeader('webhook-id'),
          'webhook-timestamp': req.getHeader('webhook-timestamp'),
          'webhook-signature': req.getHeader('webhook-signature'),
        }
      : null;
    const chunks = [];
    res.onAborted(() => {});
    res.onData((chunk, last) => {
      if (check) chunks.push(Buffer.from(chunk.slice(0)));
      if (!last) return;
      if (count === 0) first = performance.now();
      count++;
      if (check) {
        const body = Buffer.concat(chunks).toString('utf8');
        sampled++;
        try {
          verifier(JSON.parse(body).account.space_id).verify(body, headers);
        } catch {
          badSignatures++;
        }
      }
      res.cork(() => res.writeStatus('200 OK').end());
      if (count === Number(expected)) {
        const seconds = (performance.now() - first) / 1000;
        process.stdout.write(
          `deliveries=${count} secs=${seconds.toFixed(2)} per_s=${Math.round(count / seconds)} sampled=${sampled} bad_signatures=${badSignatures}\n`,
        );
      }
    });
  })
  .listen('127.0.0.1', 0, (socket) => process.stdout.write(`port=${uws.us_socket_local_port(socket)}\n`));
