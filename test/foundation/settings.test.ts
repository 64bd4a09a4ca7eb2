/** get_settings: the space, the calling key, the limits in force. */
import t from 'tap';
import { startService } from '../helpers/service.js';

t.test('get_settings tells the space, the key and the limits', async (t) => {
  const svc = await startService();
  const { apiKey, spaceId } = await svc.space({ human: 'jeanne@exemple.fr', plan: 'starter' });
  const robot = await svc.key(apiKey, { name: 'robot', permissions: ['read'], daily_cap: 50 });
  const res = await svc.call(robot.apiKey, 'get_settings');
  t.equal(res.status, 200);
  t.same(res.body.space, {
    id: spaceId,
    name: 'jeanne@exemple.fr',
    verified: true,
    human_email: 'j***@exemple.fr',
    plan: 'starter',
    approval_required: false,
    send_window: 'du lundi au vendredi, de 9 h à 18 h (heure de Paris), hors jours fériés',
    common_domain: svc.rt.config.commonDomain,
    managed: false,
    closes_at: null,
  });
  t.same(res.body.key, {
    id: robot.keyId,
    name: 'robot',
    kind: 'key',
    permissions: ['read'],
    inbox_ids: null,
    daily_cap: 50,
    sent_today: 0,
  });
  t.equal(res.body.limits.active_keys, 20);
  t.equal(res.body.limits.daily_cap_max, 10000);
  t.equal(res.body.mcp_url, `${svc.url}/mcp`);
  t.equal(res.body.webhook, null, 'no webhook declared');
});

t.test('the window in words follows the configuration', async (t) => {
  const svc = await startService({ env: { SEND_WINDOW: 'always' } });
  const { apiKey } = await svc.space();
  t.equal((await svc.call(apiKey, 'get_settings')).body.space.send_window, 'à toute heure, tous les jours');
  const other = await startService({ env: { SEND_WINDOW: 'mon,wed 08:30-12:00 Europe/Paris' } });
  const space = await other.space();
  t.equal(
    (await other.call(space.apiKey, 'get_settings')).body.space.send_window,
    'le lundi, mercredi, de 8 h 30 à 12 h (heure de Paris)',
  );
});
