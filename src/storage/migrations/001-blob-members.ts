/**
 * A space's blob set (spaceKeys(id).blobs) names each blob by its SHA-256 in base64url
 * (blobSetMember, src/blobs/store.ts); sets written before held the 64 hex digits. Each hex member
 * becomes its base64url form, so the orphan sweep asks one form only.
 */
import { blobSetMember } from '../../blobs/store.js';
import { spaceKeys } from '../../redis/keys.js';
import type { Runtime } from '../../runtime.js';
import { eachSpace, type Migration } from './steps.js';

const HEX_SHA256 = /^[0-9a-f]{64}$/;

async function rewriteBlobMembers(rt: Runtime): Promise<number> {
  let rewritten = 0;
  await eachSpace(rt, async (spaceId) => {
    const set = spaceKeys(spaceId).blobs;
    let cursor = '0';
    do {
      const [next, members] = await rt.redis.sscan(set, cursor, 'COUNT', 500);
      cursor = next;
      const hex = members.filter((member) => HEX_SHA256.test(member));
      if (!hex.length) continue;
      // One transaction per page: a member is never missing in both forms.
      await rt.redis
        .multi()
        .sadd(set, ...hex.map(blobSetMember))
        .srem(set, ...hex)
        .exec();
      rewritten += hex.length;
    } while (cursor !== '0');
  });
  return rewritten;
}

export const blobMembers: Migration = { name: 'blob-members', run: rewriteBlobMembers };
