/** `mailbox admin create-space` (docs/contract.md, Decisions 2, 8), run in-process against the test Redis. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { withMasterKey } from '../../src/cli/runtime.js';
import { loadConfig } from '../../src/config.js';
import { startService } from '../helpers/service.js';
import { cli } from '../helpers/cli.js';

const svc = await startService();

t.test('create-space prints the space and a first key with all four permissions', async (t) => {
  const res = await cli(
    'admin',
    'create-space',
    '--human',
    'Marie@Exemple.fr',
    '--plan',
    'pro',
    '--verified',
    '--managed',
  );
  t.equal(res.code, 0, res.err);
  const { space_id, api_key } = JSON.parse(res.out);
  t.match(space_id, /^spc_[0-9a-z]{20}$/);
  const settings = await svc.call(api_key, 'get_settings');
  t.equal(settings.status, 200);
  t.equal(settings.body.space.id, space_id);
  t.equal(settings.body.space.plan, 'pro');
  t.equal(settings.body.space.verified, true);
  t.equal(settings.body.space.human_email, 'm***@exemple.fr');
  t.same(settings.body.key.permissions, ['send', 'read', 'approve', 'manage_inboxes']);
});

t.test('a space is unverified and without plan unless told', async (t) => {
  const res = await cli('admin', 'create-space', '--human', 'paul@exemple.fr');
  const { api_key } = JSON.parse(res.out);
  const settings = await svc.call(api_key, 'get_settings');
  t.equal(settings.body.space.verified, false);
  t.equal(settings.body.space.plan, 'none');
});

t.test('refusals', async (t) => {
  t.equal((await cli('admin', 'create-space')).code, 2, 'no human');
  t.equal((await cli('admin', 'create-space', '--human', 'pas-une-adresse')).code, 2);
  const plan = await cli('admin', 'create-space', '--human', 'a@b.fr', '--plan', 'diamant');
  t.equal(plan.code, 2);
  t.match(plan.err, 'unknown plan');
  t.equal((await cli('admin', 'explode')).code, 2);
  t.equal((await cli('dance')).code, 2);
  t.equal((await cli('admin', 'create-space', '--human', 'a@b.fr', '--bogus')).code, 1, 'unknown option');
  t.equal((await cli('serve', '--role', 'juggler')).code, 2);
});

t.test(
  'serve without MAILBOX_MASTER_KEY keeps one in MAILBOX_MASTER_KEY_FILE, made once (docker compose)',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'mailbox-key-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'var', 'master.key');
    const env = { REDIS_URL: 'redis://redis:6379', MAILBOX_MASTER_KEY_FILE: file };
    const first = withMasterKey(loadConfig(env)).masterKey;
    t.equal(first?.length, 32);
    t.equal(statSync(file).mode & 0o777, 0o600);
    t.same(withMasterKey(loadConfig(env)).masterKey, first, 'read back at the next start');
    t.equal(
      withMasterKey(loadConfig({ REDIS_URL: 'redis://redis:6379' })).masterKey,
      null,
      'an own Redis without either: none',
    );
    const given = { ...env, MAILBOX_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') };
    t.same(withMasterKey(loadConfig(given)).masterKey, Buffer.alloc(32, 7), 'MAILBOX_MASTER_KEY wins');
  },
);
