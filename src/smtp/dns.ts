/**
 * The DNS mailauth asks for SPF, DKIM, DMARC and ARC, cached in the SMTP process. Mail from one
 * sender asks the same few names over and over (its SPF record, its DMARC policy, its DKIM key): one
 * query per name and period is enough, and concurrent messages share the query in flight. Answers
 * are kept 5 minutes, "no such name / no such record" 1 minute (most senders publish no DMARC, many
 * no SPF), failures 10 seconds (a sender whose DNS is down does not hold every message for the
 * timeout). Queries go to the configured servers (DNS_SERVERS: tests answer from their own DNS
 * server), with short timeouts: a message waits at most a few seconds for its verdicts.
 */
import type { Config } from '../config.js';
import { configuredResolver, EMPTY_ANSWER } from '../domains/dns.js';

/** mailauth's resolver: node's record shapes; errors keep node's codes (it reads ENOTFOUND and ENODATA). */
export type Resolve = (name: string, rrtype: string) => Promise<string[][] | string[]>;

const ANSWER_TTL_MS = 5 * 60_000;
const EMPTY_TTL_MS = 60_000;
const FAILURE_TTL_MS = 10_000;
/** Names are a sender's few records: this many covers a busy hour; past it the oldest entry goes. */
const MAX_ENTRIES = 10_000;

interface Entry {
  /** Infinity while the query is in flight. */
  until: number;
  answer: ReturnType<Resolve>;
}

/** `resolve` behind a cache keyed by type and name; `now` is the runtime's clock (tests move it). */
export function cachedResolver(resolve: Resolve, now: () => number): Resolve {
  const cache = new Map<string, Entry>();
  return (name, rrtype) => {
    const key = `${rrtype} ${name.toLowerCase()}`;
    const hit = cache.get(key);
    if (hit && hit.until > now()) return hit.answer;
    cache.delete(key);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    const entry: Entry = { until: Infinity, answer: resolve(name, rrtype) };
    entry.answer.then(
      () => (entry.until = now() + ANSWER_TTL_MS),
      (error: NodeJS.ErrnoException) =>
        (entry.until = now() + (EMPTY_ANSWER.has(error.code ?? '') ? EMPTY_TTL_MS : FAILURE_TTL_MS)),
    );
    cache.set(key, entry);
    return entry.answer;
  };
}

/** The cached resolver of an SMTP front end, on the configured servers (or the system's). */
export function mailauthResolver(config: Config, now: () => number): Resolve {
  const resolver = configuredResolver(config, 1000);
  return cachedResolver((name, rrtype) => resolver.resolve(name, rrtype) as ReturnType<Resolve>, now);
}
