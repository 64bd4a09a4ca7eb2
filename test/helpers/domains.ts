/** Own domains for tests: a master key for DKIM sealing, unique names, and a domain taken to `verified`. */
import { randomBytes } from 'node:crypto';
import type { TestService } from './service.js';

/** For startService's env: add_domain needs a master key to seal DKIM private keys. */
export const MASTER_KEY = randomBytes(32).toString('base64');

/** Claims are global (and shared by every file on the cluster run): each test domain is new. */
export const uniqueDomain = (label = 'exemple'): string => `${label}-${randomBytes(4).toString('hex')}.test`;

export interface TestDomain {
  id: string;
  domain: string;
  records: { type: string; name: string; value: string; role: string; label: string; required: boolean }[];
}

export async function addDomain(svc: TestService, apiKey: string, domain = uniqueDomain()): Promise<TestDomain> {
  const res = await svc.call(apiKey, 'add_domain', { domain });
  if (res.status !== 200) throw new Error(`add_domain failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Registers a domain, publishes its records on the test DNS server and verifies it. */
export async function verifiedDomain(svc: TestService, apiKey: string, domain = uniqueDomain()): Promise<TestDomain> {
  const added = await addDomain(svc, apiKey, domain);
  svc.dns.publish(added.records);
  const res = await svc.call(apiKey, 'verify_domain', { domain: added.domain });
  if (res.status !== 200 || res.body.status !== 'verified')
    throw new Error(`verify_domain failed: ${JSON.stringify(res.body)}`);
  return added;
}
