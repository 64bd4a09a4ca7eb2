/**
 * Running campaigns are listed in 16 sets, one a space's shard (actors/campaign.ts, runningCampaignsOf);
 * before, in one set under its own tag, which this step empties into the shards (each entry added to
 * its shard before it leaves the old set: a step interrupted between the two is run again harmlessly).
 */
import { runningCampaignsOf } from '../../../actors/campaign.js';
import { KEY_PREFIX } from '../../redis/keys.js';
import type { Runtime } from '../../runtime.js';
import type { Migration } from './steps.js';

/** The one set of running campaigns ("<space id> <campaign id>" members) the older layout kept. */
export const UNSHARDED_RUNNING_CAMPAIGNS = `${KEY_PREFIX}:{campaigns}:running`;

async function shardRunningCampaigns(rt: Runtime): Promise<number> {
  const entries = await rt.redis.smembers(UNSHARDED_RUNNING_CAMPAIGNS);
  for (const entry of entries) {
    await rt.redis.sadd(runningCampaignsOf(entry.split(' ')[0]!), entry);
    await rt.redis.srem(UNSHARDED_RUNNING_CAMPAIGNS, entry);
  }
  return entries.length;
}

export const runningCampaigns: Migration = { name: 'running-campaigns', run: shardRunningCampaigns };
