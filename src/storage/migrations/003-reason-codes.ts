/**
 * Reasons are codes (REASONS, src/texts.ts); stores written before held French sentences: an inbox's
 * and a domain's `status_reason`, a webhook's `last_error`, and the `reason` (`error`) of the journal
 * lines that tell a suspension or a given-up delivery. Each sentence becomes its code; a journal
 * line's figures (the circuit breaker's counts, a domain's missing records) go in its data beside it,
 * where today's lines carry them, so its text reads as it did.
 */
import { spaceKeys } from '../../redis/keys.js';
import type { Runtime } from '../../runtime.js';
import { eachSpace, type Migration } from './steps.js';

/** A stored sentence's code and figures; null for a value that is a code already. */
function codeOf(stored: string): { code: string; figures: Record<string, unknown> } | null {
  const bounces = /^(\d+) rebonds? définitifs? sur (\d+) envois/.exec(stored);
  if (bounces) return { code: 'bounce_rate', figures: { bounced_7d: Number(bounces[1]), sent_7d: Number(bounces[2]) } };
  const complaints = /^(\d+) plaintes? pour spam sur (\d+) envois/.exec(stored);
  if (complaints)
    return {
      code: 'complaint_rate',
      figures: { complaints_7d: Number(complaints[1]), sent_7d: Number(complaints[2]) },
    };
  const records = /^enregistrements requis absents ou différents(?: : (.+))?$/.exec(stored);
  if (records) return { code: 'records_missing', figures: records[1] ? { missing: records[1].split(', ') } : {} };
  if (stored === 'aucune réponse HTTP exploitable') return { code: 'no_http_answer', figures: {} };
  const status = /^réponse HTTP (\d{3})$/.exec(stored)?.[1];
  return status ? { code: `http_${status}`, figures: {} } : null;
}

/** Journal line kinds that hold a reason, and the data field that holds it. */
const REASON_FIELDS: Record<string, string> = {
  'inbox.suspended': 'reason',
  'domain.suspended': 'reason',
  'domain.checked': 'reason',
  'webhook.gave_up': 'error',
};

/** Rewrites one hash field when it holds a sentence; answers 1 if it did. */
async function rewriteField(rt: Runtime, key: string, field: string): Promise<number> {
  const stored = await rt.redis.hget(key, field);
  const rewritten = stored ? codeOf(stored) : null;
  if (!rewritten) return 0;
  await rt.redis.hset(key, field, rewritten.code);
  return 1;
}

async function rewriteJournal(rt: Runtime, journal: string): Promise<number> {
  let rewritten = 0;
  let cursor = '0';
  do {
    const [next, page] = await rt.redis.hscan(journal, cursor, 'COUNT', 500);
    cursor = next;
    for (let i = 0; i < page.length; i += 2) {
      const line = JSON.parse(page[i + 1]!) as { kind: string; data?: Record<string, unknown> };
      const field = REASON_FIELDS[line.kind];
      const stored = field && line.data?.[field];
      const found = typeof stored === 'string' ? codeOf(stored) : null;
      if (!found) continue;
      line.data = { ...found.figures, ...line.data, [field!]: found.code };
      await rt.redis.hset(journal, page[i]!, JSON.stringify(line));
      rewritten++;
    }
  } while (cursor !== '0');
  return rewritten;
}

async function rewriteReasons(rt: Runtime): Promise<number> {
  let rewritten = 0;
  await eachSpace(rt, async (spaceId) => {
    const keys = spaceKeys(spaceId);
    for (const inboxId of await rt.redis.zrange(keys.inboxes, '0', '-1'))
      rewritten += await rewriteField(rt, keys.inbox(inboxId), 'status_reason');
    for (const name of await rt.redis.hkeys(keys.domains))
      rewritten += await rewriteField(rt, keys.domain(name), 'status_reason');
    rewritten += await rewriteField(rt, keys.webhook, 'last_error');
    rewritten += await rewriteJournal(rt, keys.journal);
  });
  return rewritten;
}

export const reasonCodes: Migration = { name: 'reason-codes', run: rewriteReasons };
