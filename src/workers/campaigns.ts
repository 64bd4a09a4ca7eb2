/**
 * The campaign feeder: every CAMPAIGN_FEED_SECONDS, visits the running campaigns (actors/campaign-feed.ts)
 * and creates the messages their inboxes have room for. Several workers may run it at once: the
 * engine claims each contact's step atomically, so none is written twice.
 */
import { feedRunning } from '../../actors/campaign-feed.js';
import type { Runtime } from '../runtime.js';
import type { RunningWorker } from './domains.js';

export function startCampaignFeeder(rt: Runtime, options: { intervalMs?: number } = {}): RunningWorker {
  let feeding: Promise<void> | null = null;
  const feedNow = (): void => {
    feeding ??= feedRunning(rt)
      .catch((error: Error) => rt.log.error('campaign feeder failed', { error: error.message }))
      .finally(() => (feeding = null));
  };
  feedNow();
  const timer = setInterval(feedNow, options.intervalMs ?? rt.config.campaignFeedMs);
  return {
    async close() {
      clearInterval(timer);
      await feeding;
    },
  };
}
