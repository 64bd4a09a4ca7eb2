// Open-loop load at a fixed rate (wrk is closed-loop): POSTs the body every 1/rate s for `secs`
// seconds over keep-alive connections and prints p50/p99 latency in ms and the error count.
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [url, key, bodyFile, rate = '2000', secs = '10'] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const target = new URL(url);
const latencies = [];
let errors = 0;
const total = Number(rate) * Number(secs);
const start = performance.now();
await new Promise((done) => {
  let sent = 0;
  let finished = 0;
  const fire = () => {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * Number(rate)));
    for (; sent < due; sent++) {
      const began = performance.now();
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'content-length': body.length } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) errors++;
          latencies.push(performance.now() - began);
          if (++finished === total) done();
        });
      });
      req.on('error', () => { errors++; if (++finished === total) done(); });
      req.end(body);
    }
    if (sent < total) setTimeout(fire, 1);
  };
  fire();
});
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2);
console.log(`rate=${rate} requests=${total} p50_ms=${pct(50)} p99_ms=${pct(99)} errors=${errors}`);
agent.destroy();
