/**
 * Closing a space (docs/contract.md, Part 3): a code to the human, its confirmation (erasure 48 h later,
 * everything working until then), or a cancellation; then the erasure job, which removes every key of
 * the space and releases what it held outside (address and domain claims, webhook indexes).
 * Invoices are the payment provider's (Stripe keeps them); nothing of ours holds one.
 */
import { Cluster, type Redis } from 'ioredis';
import type { Runtime } from '../src/runtime.js';
import { routePath } from '../src/workspace/pages.js';
import { globalKeys, spaceKeyPattern, spaceKeys } from '../src/redis/keys.js';
import { iso } from '../src/clock.js';
import { MailboxError } from '../src/errors.js';
import { eraseQueue, eraseJobId, scheduleErase, cancelDomainRecheck } from '../src/redis/queues.js';
import { maskEmail, parisMoment, plural } from '../src/texts.js';
import { CODE_RULES, checkCode, issueCode, matchesCode, pendingCode } from './codes.js';
import { readClaim, swapClaim, type AddressClaim } from './claims.js';
import * as spaceLua from './bindings/space.generated.js';
import { lineArgs, prepareLine } from './journal.js';
import { actorOf, type Access } from './space.js';
import { forgetSpace } from './webhook-index.js';
import { unindexSpace } from './history-index.js';

export const ERASURE_DELAY_MS = 48 * 3600_000;

export interface ClosureView {
  cancelled: boolean;
  closes_at: string | null;
  code_sent: boolean;
  expires_at: string | null;
  human_email: string | null;
  removes: { inboxes: number; domains: number; subscription: string | null; invoices_kept: boolean };
  scheduled: boolean;
}

/** What erasure would remove now, and whether a confirmed closure waits. */
async function view(rt: Runtime, access: Access, change: Partial<ClosureView>): Promise<ClosureView> {
  const keys = spaceKeys(access.space.id);
  const [inboxes, domains, closesAt] = await Promise.all([
    rt.redis.zcard(keys.inboxes),
    rt.redis.hlen(keys.domains),
    rt.redis.hget(keys.space, 'closes_at'),
  ]);
  return {
    cancelled: false,
    closes_at: closesAt ? iso(Number(closesAt)) : null,
    code_sent: false,
    expires_at: null,
    human_email: maskEmail(access.space.human_email),
    removes: {
      inboxes,
      domains,
      subscription: access.space.plan === 'none' ? null : access.space.plan,
      invoices_kept: true,
    },
    scheduled: closesAt !== null,
    ...change,
  };
}

/** When a confirmed closure erases the space (ISO 8601), or null when none is scheduled. */
export async function scheduledClosure(rt: Runtime, spaceId: string): Promise<string | null> {
  const closesAt = await rt.redis.hget(spaceKeys(spaceId).space, 'closes_at');
  return closesAt ? iso(Number(closesAt)) : null;
}

function refuseManaged(access: Access): void {
  if (access.space.managed) throw new MailboxError('space_managed');
}

/** Step 1: the code to the human. A closure already confirmed is told as it is, no code sent. */
export async function requestClosure(rt: Runtime, access: Access): Promise<ClosureView> {
  refuseManaged(access);
  const human = access.space.human_email;
  if (!human) throw new MailboxError('no_human');
  const current = await view(rt, access, {});
  if (current.scheduled) return current;
  const expiresAt = await issueCode(rt, access.space.id, actorOf(access), 'close', {
    to: human,
    subject: 'Code de fermeture de votre espace Mailbox',
    text: (code) =>
      `Bonjour,\n\n${access.human ? 'Vous demandez' : `L'agent « ${access.key.name} » demande`} la fermeture de l'espace Mailbox ${access.space.name} ` +
      `(${plural(current.removes.inboxes, 'boîte', 'boîtes')} et ${plural(current.removes.domains, 'domaine', 'domaines')} à supprimer).\n\n` +
      `Code de confirmation : ${code}\n\nIl est valable ${CODE_RULES.validityMs / 60_000} minutes. ` +
      `Ne le donnez que si vous voulez fermer l'espace : tout sera effacé 48 heures après la confirmation.\n` +
      `Vous pouvez aussi confirmer ou refuser la fermeture vous-même, dans l'espace de travail : ` +
      `${rt.config.baseUrl}${routePath({ page: 'espace', arguments: {} })}\n` +
      `Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.\n`,
  });
  return { ...current, code_sent: true, expires_at: iso(expiresAt) };
}

/**
 * Step 2: the code confirms; erasure in 48 h. The provider's cancellation runs first, once the code is
 * known right, so its refusal (billing_unavailable) changes nothing, not even the attempt count. The
 * erasure job is stored before the confirmation: a job whose closure did not happen does nothing.
 */
export async function confirmClosure(rt: Runtime, access: Access, code: string): Promise<ClosureView> {
  refuseManaged(access);
  const spaceId = access.space.id;
  const pending = await pendingCode(rt, spaceId, 'close');
  const now = rt.clock.now();
  const provider = rt.ports.billing();
  if (pending && provider && matchesCode(pending, code, now)) await provider.cancelSubscriptions(spaceId);
  const closesAt = now + ERASURE_DELAY_MS;
  await scheduleErase(rt, spaceId, closesAt);
  const line = prepareLine(rt, 'space.closure_scheduled', actorOf(access), {}, { closes_at: iso(closesAt) });
  try {
    await checkCode(rt, spaceId, 'close', pending, code, { closes_at: String(closesAt) }, line);
  } catch (error) {
    await eraseQueue(rt).remove(eraseJobId(spaceId, closesAt));
    throw error;
  }
  return view(rt, access, {});
}

/** Step 3: cancels a confirmed closure and any pending code. */
export async function cancelClosure(rt: Runtime, access: Access): Promise<ClosureView> {
  refuseManaged(access);
  const keys = spaceKeys(access.space.id);
  const closesAt = await rt.redis.hget(keys.space, 'closes_at');
  const line = prepareLine(rt, 'space.closure_cancelled', actorOf(access), {}, {});
  const { cancelled } = await spaceLua.cancelClosure(
    rt.scripts,
    { space: keys.space, code: keys.code('close'), journal: keys.journal, journalIndex: keys.journalIndex },
    lineArgs(line),
  );
  // The job would find no closure and do nothing; removing it only spares it the wait.
  if (closesAt) await eraseQueue(rt).remove(eraseJobId(access.space.id, Number(closesAt)));
  return view(rt, access, { cancelled });
}

export const closureMoment = (closesAt: string): string => parisMoment(Date.parse(closesAt));

/** Deletes every key of the space matching its tag, on every primary (one slot holds them all). */
async function deleteSpaceKeys(rt: Runtime, spaceId: string, keep: string): Promise<number> {
  const nodes: Redis[] = rt.redis instanceof Cluster ? rt.redis.nodes('master') : [rt.redis];
  let deleted = 0;
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', spaceKeyPattern(spaceId), 'COUNT', 500);
      cursor = next;
      const doomed = found.filter((key) => key !== keep);
      // One slot for all of them: one UNLINK is Cluster-safe.
      if (doomed.length) deleted += await rt.redis.unlink(...doomed);
    } while (cursor !== '0');
  }
  return deleted;
}

/** Gives back the space's live addresses (own domain: released; common domain: kept `deleted`, never reassigned). */
async function releaseAddresses(rt: Runtime, spaceId: string): Promise<void> {
  const keys = spaceKeys(spaceId);
  for (const inboxId of await rt.redis.zrange(keys.inboxes, '0', '-1')) {
    const [address, shared] = await rt.redis.hmget(keys.inbox(inboxId), 'address', 'shared');
    if (!address) continue;
    const held = await readClaim<AddressClaim>(rt, globalKeys.address(address));
    if (!held || held.value.space_id !== spaceId) continue;
    await swapClaim(
      rt,
      globalKeys.address(address),
      held.raw,
      shared === '1' ? JSON.stringify({ ...held.value, state: 'deleted' }) : null,
    );
  }
}

async function releaseDomains(rt: Runtime, spaceId: string): Promise<void> {
  const domains = await rt.redis.hgetall(spaceKeys(spaceId).domains);
  for (const [name, domainId] of Object.entries(domains)) {
    await cancelDomainRecheck(rt, spaceId, domainId);
    const ours = JSON.stringify({ space_id: spaceId, domain_id: domainId });
    await swapClaim(rt, globalKeys.domain(name), ours, null);
  }
}

/**
 * The erasure job: runs only if the closure confirmed for `closesAt` still stands and is due (a job
 * early on the injected clock comes back later). Order matters: keys stop answering first (auth), mail
 * stops (claims), then every key goes, the space's hash last so a retry after a crash still finds
 * the closure to finish. Returns whether it erased.
 */
export async function eraseSpace(rt: Runtime, spaceId: string, closesAt: number): Promise<boolean> {
  const keys = spaceKeys(spaceId);
  const due = await rt.redis.hget(keys.space, 'closes_at');
  if (due !== String(closesAt)) return false;
  if (rt.clock.now() < closesAt) {
    await scheduleErase(rt, spaceId, closesAt);
    return false;
  }
  await rt.redis.unlink(keys.auth);
  await releaseAddresses(rt, spaceId);
  await releaseDomains(rt, spaceId);
  // Before the space's hash goes: a failed removal is retried by the job, which re-reads closes_at there.
  await rt.ports.blobs.removeSpace(spaceId);
  await forgetSpace(rt, spaceId);
  await deleteSpaceKeys(rt, spaceId, keys.space);
  await rt.redis.unlink(keys.space);
  // Once its fields are gone: until then it is a space, and a space is in the history index.
  await unindexSpace(rt, spaceId);
  // A worker that was finishing a delivery may have written after the scan; nothing answers it any more.
  await deleteSpaceKeys(rt, spaceId, '');
  rt.log.info('space erased', { space_id: spaceId });
  return true;
}
