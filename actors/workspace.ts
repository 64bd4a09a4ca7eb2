/**
 * Workspace instances (docs/contract.md, Decision 12): the view the human watches, driven by the assistant. An
 * instance lives in Redis under its space's hash tag (any front end serves it); a waiting view blocks
 * on the instance's wake stream on a connection of its own, so a navigation made on any front end
 * releases it at once. The service-wide limits are sorted sets under WORKSPACE_INDEX: every process
 * sharing the index shares them, and a place held by a process that died ends by itself.
 */
import { createHash } from 'node:crypto';
import { iso } from '../src/clock.js';
import { MailboxError } from '../src/errors.js';
import { waitConnection } from '../src/redis/connect.js';
import { globalKeys, spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { randomBase62 } from '../src/ids.js';
import { routeText, type Route } from '../src/workspace/pages.js';
import type { Access, StoredKey } from './space.js';
import * as workspaceLua from './bindings/workspace.generated.js';

/** Who may use an instance: the access that opened it, with the rights it held then. */
const accessFingerprint = (key: Pick<StoredKey, 'permissions' | 'inbox_ids'>): string =>
  createHash('sha256')
    .update(JSON.stringify([[...key.permissions].sort(), key.inbox_ids ? [...key.inbox_ids].sort() : null]))
    .digest('hex');

/** A place in a bounded set ends this long after its planned end, so a slow release never double-counts it. */
const SLOT_MARGIN_MS = 5_000;

interface SlotSpec {
  key: string;
  member: string;
  endsAt: number;
  max: number;
  refusal: 'workspace_capacity' | 'workspace_busy';
  hint: Record<string, unknown>;
}

const claimSlot = (rt: Runtime, slot: SlotSpec) =>
  workspaceLua.claimSlot(
    rt.scripts,
    { slots: slot.key },
    {
      now: rt.clock.now(),
      member: slot.member,
      endsAt: slot.endsAt,
      max: slot.max,
      refusal: slot.refusal,
      hint: JSON.stringify(slot.hint),
    },
  );

const releaseSlot = (rt: Runtime, key: string, member: string) =>
  workspaceLua.releaseSlot(rt.scripts, { slots: key }, { member });

const serviceMember = (spaceId: string, instanceId: string) => `${spaceId} ${instanceId}`;

/** The instance's place among the service's until `endsAt`: taken (503 when full), or kept, pushed on. */
const holdServicePlace = (rt: Runtime, spaceId: string, instanceId: string, endsAt: number) =>
  claimSlot(rt, {
    key: globalKeys.workspaceInstances(rt.config.workspace.index),
    member: serviceMember(spaceId, instanceId),
    endsAt,
    max: rt.config.workspace.maxInstances,
    refusal: 'workspace_capacity',
    hint: { memory: true, retry_after_seconds: 60 },
  });

const releaseServicePlace = (rt: Runtime, spaceId: string, instanceId: string) =>
  releaseSlot(rt, globalKeys.workspaceInstances(rt.config.workspace.index), serviceMember(spaceId, instanceId));

export interface OpenedInstance {
  instance_id: string;
  sequence: number;
  route: Route;
  expires_at: string;
}

/**
 * open_workspace: a place among the service's instances first (503 when full), then the instance in
 * its space (429 past the space's limit, and the service's place given back).
 */
export async function openInstance(rt: Runtime, access: Access, route: Route): Promise<OpenedInstance> {
  const settings = rt.config.workspace;
  const instanceId = rt.ids.next('workspace');
  const now = rt.clock.now();
  const expiresAt = now + settings.ttlMs;
  await holdServicePlace(rt, access.space.id, instanceId, expiresAt);
  const keys = spaceKeys(access.space.id);
  try {
    await workspaceLua.openInstance(
      rt.scripts,
      { space: keys.space, workspaces: keys.workspaces, instance: keys.workspace(instanceId) },
      {
        instanceId,
        now,
        expiresAt,
        instance: JSON.stringify({
          key_id: access.key.id,
          access: accessFingerprint(access.key),
          route: routeText(route),
        }),
        max: settings.perSpace,
      },
    );
  } catch (error) {
    await releaseServicePlace(rt, access.space.id, instanceId);
    throw error;
  }
  return { instance_id: instanceId, sequence: 0, route, expires_at: iso(expiresAt) };
}

/** navigate_workspace: a new command (its sequence), or `unchanged` for the route already asked for. */
export async function navigateInstance(
  rt: Runtime,
  access: Access,
  instanceId: string,
  route: Route,
): Promise<{ unchanged: boolean; sequence: number }> {
  const keys = spaceKeys(access.space.id);
  return workspaceLua.navigateInstance(
    rt.scripts,
    { instance: keys.workspace(instanceId), wake: keys.workspaceWake(instanceId) },
    {
      now: rt.clock.now(),
      accessId: access.key.id,
      fingerprint: accessFingerprint(access.key),
      route: routeText(route),
    },
  );
}

export type SyncMode = 'read' | 'barrier' | 'close';

export type SyncStep = workspaceLua.SyncViewReply;

export interface SyncRequest {
  instanceId: string;
  afterSequence: number;
  ackSequence: number | null;
  mode: SyncMode;
}

/** One atomic step of workspace_events (lua/workspace/syncView-4.lua). */
export async function syncView(rt: Runtime, access: Access, request: SyncRequest): Promise<SyncStep> {
  const keys = spaceKeys(access.space.id);
  const step = await workspaceLua.syncView(
    rt.scripts,
    {
      instance: keys.workspace(request.instanceId),
      waits: keys.workspaceWaits(request.instanceId),
      wake: keys.workspaceWake(request.instanceId),
      workspaces: keys.workspaces,
    },
    {
      now: rt.clock.now(),
      accessId: access.key.id,
      fingerprint: accessFingerprint(access.key),
      after: request.afterSequence,
      ack: request.ackSequence ?? '',
      mode: request.mode,
      lifetime: rt.config.workspace.ttlMs,
    },
  );
  if ('closed' in step) await releaseServicePlace(rt, access.space.id, request.instanceId);
  // The instance lives on with its view, and so does its place among the service's (never refused: it holds one).
  else await holdServicePlace(rt, access.space.id, request.instanceId, rt.clock.now() + rt.config.workspace.ttlMs);
  return step;
}

/**
 * Holds the view's call until a navigation or a local barrier is written to the instance after
 * `from`, or `waitMs` pass: a place among the instance's waits (2) and the service's (64) first,
 * `workspace_busy` beyond.
 */
export async function waitForNavigation(rt: Runtime, access: Access, instanceId: string, from: string): Promise<void> {
  const settings = rt.config.workspace;
  const keys = spaceKeys(access.space.id);
  const token = randomBase62(16);
  const endsAt = rt.clock.now() + settings.waitMs + SLOT_MARGIN_MS;
  const hint = { retry_after_seconds: Math.max(1, Math.ceil(settings.waitMs / 1000)) };
  const instanceWaits = keys.workspaceWaits(instanceId);
  const serviceWaits = globalKeys.workspaceWaits(settings.index);
  await claimSlot(rt, {
    key: instanceWaits,
    member: token,
    endsAt,
    max: settings.waitsPerInstance,
    refusal: 'workspace_busy',
    hint,
  });
  try {
    await claimSlot(rt, {
      key: serviceWaits,
      member: `${access.space.id} ${token}`,
      endsAt,
      max: settings.maxWaits,
      refusal: 'workspace_busy',
      hint,
    });
  } catch (error) {
    await releaseSlot(rt, instanceWaits, token);
    throw error;
  }
  const blocking = waitConnection(rt.redis, settings.waitMs);
  blocking.on('error', (error: Error) => rt.log.warn('workspace wait connection error', { error: error.message }));
  try {
    await blocking.xread('BLOCK', settings.waitMs, 'STREAMS', keys.workspaceWake(instanceId), from);
  } finally {
    blocking.disconnect();
    await Promise.all([
      releaseSlot(rt, instanceWaits, token),
      releaseSlot(rt, serviceWaits, `${access.space.id} ${token}`),
    ]);
  }
}

/**
 * The access as it stands now (read again after a wait): its rights may have changed while the view
 * waited. Revoked, or other permissions or inboxes than when the instance opened: access_changed.
 */
export async function currentAccess(rt: Runtime, access: Access): Promise<Access> {
  // A signed-in human holds every permission for the whole session, checked when the call began.
  if (access.human) return access;
  const raw = await rt.redis.hget(spaceKeys(access.space.id).keys, access.key.id);
  const key = raw ? (JSON.parse(raw) as StoredKey) : null;
  if (!key || accessFingerprint(key) !== accessFingerprint(access.key)) throw new MailboxError('access_changed');
  return { ...access, key };
}
