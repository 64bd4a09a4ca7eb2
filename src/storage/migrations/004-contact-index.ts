/**
 * A space's contacts are listed in address order from their index (spaceKeys(id).contactIndex), which
 * add_contacts keeps; spaces whose contacts were written before it existed got it filled in at their
 * first listing. Each space's index gets every address of its contacts.
 */
import { spaceKeys } from '../../redis/keys.js';
import type { Runtime } from '../../runtime.js';
import { eachSpace, type Migration } from './steps.js';

async function indexContacts(rt: Runtime): Promise<number> {
  let added = 0;
  await eachSpace(rt, async (spaceId) => {
    const keys = spaceKeys(spaceId);
    let cursor = '0';
    do {
      // Values come along (HSCAN NOVALUES needs Redis 7.4): a round of 500 weighs 5 MB at most.
      const [next, flat] = await rt.redis.hscan(keys.contacts, cursor, 'COUNT', 500);
      cursor = next;
      const members = flat.flatMap((value, i) => (i % 2 ? [] : ['0', value]));
      if (members.length) added += await rt.redis.zadd(keys.contactIndex, ...members);
    } while (cursor !== '0');
  });
  return added;
}

export const contactIndex: Migration = { name: 'contact-index', run: indexContacts };
