/**
 * The composition root: what a bare runtime (src/runtime.ts: connections and settings) is wired to
 * before it serves: the hook that runs after a script wrote events (the webhook wake) and the side
 * effects behaviours ask for through ports (src/ports.ts). `mailbox serve` and the test helpers call it.
 */
import { wakeSpace } from '../../actors/webhook-index.js';
import { billingProvider } from '../billing/stripe.js';
import { openBlobStore } from '../blobs/index.js';
import { sendSystemMail } from '../delivery/system-mail.js';
import type { Runtime } from '../runtime.js';

export function composeRuntime(rt: Runtime): Runtime {
  rt.ports = {
    systemMail: (mail) => sendSystemMail(rt, mail),
    billing: () => billingProvider(rt.config),
    blobs: openBlobStore(rt.config),
  };
  if (rt.config.webhooksEnabled) {
    rt.scripts.afterEvents = (spaceId) =>
      wakeSpace(rt, spaceId).catch((error: Error) =>
        rt.log.warn('webhook wake failed; the sweeper will catch up', { space_id: spaceId, error: error.message }),
      );
  }
  return rt;
}
