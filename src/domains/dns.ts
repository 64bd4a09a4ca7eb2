/**
 * Real DNS queries for domain checks and direct delivery, through the configured resolvers
 * (DNS_SERVERS) or the system's. A name that does not exist (NXDOMAIN) or has no record of the type
 * (NODATA) is an empty answer; anything else (SERVFAIL, refused, timeout) means nothing could be
 * checked: `dns_unavailable`.
 */
import { Resolver } from 'node:dns/promises';
import type { Config } from '../config.js';
import { MailboxError } from '../errors.js';

/** The error codes of an empty answer: no such name (NXDOMAIN), no record of the type (NODATA). */
export const EMPTY_ANSWER = new Set(['ENOTFOUND', 'ENODATA']);
/** Seconds an agent is told to wait after a failed resolution: resolvers usually recover within a minute. */
const RETRY_AFTER_SECONDS = 60;

export interface Mx {
  exchange: string;
  priority: number;
}

export interface Dns {
  /** TXT records at `name`, each one's strings joined (long DKIM keys come split in 255-byte strings). */
  txt(name: string): Promise<string[]>;
  mx(name: string): Promise<Mx[]>;
  /** A host's IPv4 addresses, else its IPv6 ones (direct delivery connects to them). */
  addresses(name: string): Promise<string[]>;
}

async function orEmpty<T>(query: Promise<T[]>): Promise<T[]> {
  try {
    return await query;
  } catch (error) {
    if (EMPTY_ANSWER.has((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw new MailboxError('dns_unavailable', { retry_after_seconds: RETRY_AFTER_SECONDS });
  }
}

/** A resolver on the configured servers (DNS_SERVERS: tests answer from their own), else the system's. */
export function configuredResolver(config: Config, timeoutMs: number): Resolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (config.dnsServers) resolver.setServers(config.dnsServers);
  return resolver;
}

export function createDns(config: Config): Dns {
  // A new resolver per check: no cache between checks, so a record just published is seen at once.
  const resolver = configuredResolver(config, 2500);
  return {
    txt: async (name) => (await orEmpty(resolver.resolveTxt(name))).map((chunks) => chunks.join('')),
    mx: async (name) =>
      (await orEmpty(resolver.resolveMx(name))).map((mx) => ({
        exchange: mx.exchange.toLowerCase().replace(/\.$/, ''),
        priority: mx.priority,
      })),
    addresses: async (name) => {
      const v4 = await orEmpty(resolver.resolve4(name));
      return v4.length ? v4 : orEmpty(resolver.resolve6(name));
    },
  };
}
