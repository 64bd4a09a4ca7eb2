/** Each permission opens exactly the tools that name it (registry-driven: new tools are covered too). */
import t from 'tap';
import { PERMISSIONS } from '../../src/record-schemas.js';
import { TOOLS } from '../../src/tools/index.js';
import { startService } from '../helpers/service.js';

const svc = await startService();
const { apiKey } = await svc.space();
const keyWith: Record<string, string> = {};
for (const permission of PERMISSIONS)
  keyWith[permission] = (await svc.key(apiKey, { name: `seul-${permission}`, permissions: [permission] })).apiKey;

for (const tool of TOOLS) {
  t.test(tool.name, async (t) => {
    for (const permission of PERMISSIONS) {
      const allowed = tool.permission === 'any' || tool.permission.includes(permission);
      const res = await svc.call(keyWith[permission]!, tool.name, {});
      if (allowed) {
        t.not(res.body.error?.code, 'forbidden', `${permission} opens ${tool.name}`);
      } else {
        t.equal(res.status, 403, `${permission} does not open ${tool.name}`);
        t.equal(res.body.error.code, 'forbidden');
        t.match(res.body.error.message, tool.name);
      }
    }
  });
}

t.test('a space_unverified refusal comes after the permission check', async (t) => {
  const unverified = await svc.space({ verified: false });
  for (const tool of TOOLS.filter((candidate) => candidate.verifiedRequired)) {
    const res = await svc.call(unverified.apiKey, tool.name, {});
    t.not(res.body.error?.code, 'forbidden', tool.name);
  }
});
