// The delivery floor (bench/delivery.mjs runs it beside the worker, same messages, same sink): the
// project's relay transport (src/delivery/transports.ts: composition, DKIM signature, nodemailer's pooled
// SMTP) sending the worker's own OutgoingMail of each message, with no Redis and no queue, IN_FLIGHT at a
// time as the worker's jobs. What the libraries allow: the worker cannot pass it.
// Usage: node bench/floor-delivery.mjs MAILS.json IN_FLIGHT (OUTBOUND and the rest from the environment);
// prints "sent=N secs=S per_s=R cpu_us=C" (C: this process's CPU a message); exit 1 when a send fails.
import { readFileSync } from 'node:fs';
import { systemClock } from '../dist/src/clock.js';
import { loadConfig } from '../dist/src/config.js';
import { serviceDkimKey } from '../dist/src/delivery/dkim.js';
import { closeTransport, transportFor } from '../dist/src/delivery/transports.js';

const [file, inFlight] = process.argv.slice(2);
// A transport needs only the configuration and a clock of the runtime: no Redis connection is made.
const rt = { config: loadConfig(process.env), clock: systemClock };
// The benchmark's inboxes are on the common domain: signed with the operator's key (SERVICE_DKIM_KEY_FILE),
// which the worker parses once per process, as this floor does; a parsed key does not travel in JSON.
const mails = JSON.parse(readFileSync(file, 'utf8')).map((mail) => ({
  ...mail,
  dkim: mail.dkim && serviceDkimKey(rt, mail.dkim.domainName),
}));
const transport = transportFor(rt);
let next = 0;
const started = performance.now();
const cpu = process.cpuUsage();
await Promise.all(
  Array.from({ length: Number(inFlight) }, async () => {
    while (next < mails.length) {
      const result = await transport.send(mails[next++]);
      if (!result.ok) {
        console.error(`floor: a send failed: ${result.code} ${result.response}`);
        process.exit(1);
      }
    }
  }),
);
const secs = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
console.log(
  `sent=${mails.length} secs=${secs.toFixed(3)} per_s=${(mails.length / secs).toFixed(0)} cpu_us=${((used.user + used.system) / mails.length).toFixed(0)}`,
);
await closeTransport(rt);
