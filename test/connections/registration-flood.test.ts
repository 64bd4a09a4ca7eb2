/**
 * Open registration (RFC 7591) cannot fill Redis (the flood: 30,000 registrations took 474 MB):
 * three times OAUTH_PENDING_CLIENTS registrations of the largest metadata accepted keep that many
 * pending clients, compact, the oldest dropped first; Redis grows with the cap, not with the flood; a
 * client in use is never dropped; a pending one past a day is gone. The cap is 500 here (10,000 by
 * default: the same bound, twenty times over) to keep the file short on a shared machine; the budgets
 * are the test helper's wide ones: what is measured is the cap.
 */
import t from 'tap';
import { CLIENT_RULES } from '../../actors/oauth-clients.js';
import { globalKeys } from '../../src/redis/keys.js';
import { connectByOAuth } from '../helpers/oauth.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dataDir = mkdtempSync(join(tmpdir(), 'mbx-registration-flood-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const clock = mondayMorning();
const CAP = 500;
const REGISTRATIONS = 3 * CAP;
const svc = await startService({ clock, env: { MAILBOX_DATA_DIR: dataDir, OAUTH_PENDING_CLIENTS: String(CAP) } });
// Some 1,500 requests: a loaded machine needs more than the default two minutes.
t.setTimeout(300_000);

/** The largest metadata a registration takes: a 60-character name, 1,024 characters of redirect URIs. */
const metadata = JSON.stringify({
  client_name: 'N'.repeat(60),
  redirect_uris: Array.from(
    { length: 4 },
    (_, i) => `https://flood.example/${String(i).padEnd(256 - 'https://flood.example/'.length, 'x')}`,
  ),
});

async function register(): Promise<string> {
  const res = await fetch(`${svc.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: metadata,
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}`);
  return (await res.json()).client_id;
}

/** What the pending registrations hold, counted on their own keys (a Cluster's used_memory moves with other files' tests). */
const pendingFootprint = async (): Promise<number> => {
  const index = svc.rt.config.anonymous.index;
  const keys = [globalKeys.pendingClients(index), globalKeys.pendingClientTimes(index)];
  const sizes = await Promise.all(keys.map((key) => svc.rt.redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')));
  return sizes.reduce<number>((sum, size) => sum + Number(size ?? 0), 0);
};

/** 303 to the sign-in for a client known, 400 (an error page) for one unknown. */
const authorizeStatus = async (clientId: string): Promise<number> => {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: JSON.parse(metadata).redirect_uris[0],
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'S256',
  });
  return (await fetch(`${svc.url}/oauth/authorize?${query}`, { redirect: 'manual' })).status;
};

t.test(
  `${REGISTRATIONS} registrations: ${CAP} pending at most, the oldest dropped, a client in use kept, a bounded footprint`,
  async (t) => {
    const email = `inondation-${Date.now()}@exemple.fr`;
    await svc.space({ human: email });
    const inUse = await connectByOAuth(svc, email, { name: 'Assistant en service' });
    const ids: string[] = [];
    // A hundred at once, each hundred a millisecond after the one before: the cap drops whole hundreds.
    for (let sent = 0; sent < REGISTRATIONS; sent += 100) {
      ids.push(...(await Promise.all(Array.from({ length: 100 }, register))));
      clock.advance(1);
    }
    const held = await pendingFootprint();
    const pending = globalKeys.pendingClients(svc.rt.config.anonymous.index);
    t.equal(await svc.rt.redis.hlen(pending), CAP);
    t.equal(await svc.rt.redis.zcard(globalKeys.pendingClientTimes(svc.rt.config.anonymous.index)), CAP);
    // A record is at most some 1,150 bytes of value and 300 of hash, sorted set and allocator: 2 KB allowed.
    t.ok(
      held < CAP * 2048,
      `${(held / 1024 / 1024).toFixed(2)} MB held for ${REGISTRATIONS} registrations, ${CAP} kept`,
    );
    t.equal(await authorizeStatus(ids[0]!), 400, 'the oldest is gone: unknown client');
    t.equal(await authorizeStatus(ids[REGISTRATIONS - CAP - 1]!), 400);
    t.equal(await authorizeStatus(ids[REGISTRATIONS - CAP]!), 303, 'the newest stand (to the sign-in)');
    t.equal(await authorizeStatus(ids.at(-1)!), 303);
    const tools = await inUse.client.listTools();
    t.ok(tools.tools.length, 'the client in use still works');
    const refreshed = await fetch(`${svc.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: inUse.provider.saved!.refresh_token!,
        client_id: inUse.provider.information!.client_id,
      }).toString(),
    });
    t.equal(refreshed.status, 200, 'and refreshes');

    clock.advance(CLIENT_RULES.unusedMs + 1000);
    t.equal(await authorizeStatus(ids.at(-1)!), 400, 'a day later, the pending ones are unknown at once');
    await register();
    t.equal(await svc.rt.redis.hlen(pending), CAP - 100 + 1, 'and each registration clears a hundred of them');
  },
);
