/**
 * The DKIM key a message is signed with: the first selector of the space's own sending domain, opened
 * from its sealed form (actors/domain.ts, src/crypto.ts) just before signing, never kept nor logged;
 * for common-domain and service mail, the operator's key (SERVICE_DKIM_KEY_FILE, read at start).
 */
import { dkimContext, readDomain } from '../../actors/domain.js';
import { open, requireMasterKey } from '../crypto.js';
import { DKIM_SELECTORS } from '../domains/dns-records.js';
import type { Runtime } from '../runtime.js';
import { loadDkimKey } from './mime.js';
import type { DkimKey } from './types.js';

/**
 * The signing key of `domain` for the space, or null when the domain is not one of the space's (the
 * common domain: serviceDkimKey). Throws `encryption_unavailable` without a
 * master key, and an Error when the sealed key does not open (a changed master key): no retry helps.
 */
export async function dkimKeyFor(rt: Runtime, spaceId: string, domain: string): Promise<DkimKey | null> {
  const stored = await readDomain(rt, spaceId, domain);
  if (!stored) return null;
  const selector = DKIM_SELECTORS[0];
  const sealed = (JSON.parse(stored.dkim_private) as string[])[0]!;
  return loadDkimKey(
    stored.domain,
    selector,
    open(requireMasterKey(rt.config), sealed, dkimContext(stored.id, selector)),
  );
}

/**
 * The operator's key for mail from `domain` (the common domain, or the service's own domain), or null
 * when SERVICE_DKIM_KEY_FILE is not set: that mail then leaves unsigned (sign it at the relay).
 */
export function serviceDkimKey(rt: Runtime, domain: string): DkimKey | null {
  const service = rt.config.serviceDkim;
  return service && { domainName: domain, keySelector: service.selector, privateKey: service.privateKey };
}
