/**
 * The standalone workspace at /workspace, in Chromium: the space's human signs in with a code, approves
 * a draft that then leaves (journaled as the human); each of the eleven pages is shown, screenshot for
 * docs/workspace.md and checked by axe-core; a key opens it too; another site's page cannot use the session.
 * The campaign pages show a seeded audience and a started campaign whose first messages left on an
 * injected clock: its performances, the audience's contacts and a contact's sheet.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { feedCampaign } from '../../actors/campaign-feed.js';
import { ManualClock } from '../../src/clock.js';
import { transportFor } from '../../src/delivery/transports.js';
import { ROOT } from '../../src/paths.js';
import { PAGES } from '../../src/workspace/pages.js';
import { deliverDue } from '../../src/workers/send.js';
import { seriousViolations, startBrowser } from '../helpers/browser.js';
import { lastCode } from '../helpers/codes.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { send, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';
import { signIn } from '../helpers/signin.js';

const env = {
  MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', MAILBOX_DATA_DIR: mkdtempSync(join(tmpdir(), 'mbx-ws-')),
  WORKSPACE_INDEX: `ws-${randomBytes(4).toString('hex')}`, WORKSPACE_WAIT_MS: '2000',
};
// A clock that moves only when told: the campaign's departures, 10 minutes apart per inbox, without waiting.
const clock = new ManualClock(Date.now());
const svc = await startService({ clock, env });
const browser = await startBrowser();
// Every run takes the screenshots; `WORKSPACE_SCREENSHOTS=docs/workspace` writes them where the docs show them.
const SHOTS = process.env.WORKSPACE_SCREENSHOTS ? join(ROOT, process.env.WORKSPACE_SCREENSHOTS) : mkdtempSync(join(tmpdir(), 'mbx-shots-'));

const TITLES: Record<string, string> = {
  jour: 'Aujourd’hui', valider: 'À valider', fils: 'Fils', campagnes: 'Campagnes', performances: 'Performances', audiences: 'Audiences',
  contacts: 'Contacts', boites: 'Boîtes', domaines: 'Domaines', blocages: 'Blocages', espace: 'Espace',
};

t.test('a code sign-in, a draft approved that leaves, the eleven pages: screenshots and axe', async (t) => {
  const human = `humaine-${randomBytes(3).toString('hex')}@exemple.fr`;
  const s = await sender(svc, { human });
  const drafted = await send(svc, s, { requires_approval: true, subject: 'Devis pour la mairie', text: 'Bonjour,\nvoici le devis demandé.\nBien à vous.' });
  const messageId = drafted.body.message.id;
  await svc.call(s.apiKey, 'add_suppression', { value: 'ancien-client@exemple.fr', reason: 'demande par téléphone' });

  const context = await browser.newContext({ viewport: { width: 1000, height: 760 }, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const page = await context.newPage();
  await page.goto(`${svc.url}/workspace`);
  await page.getByRole('link', { name: /Recevoir un code/ }).click();
  await page.getByLabel(/Adresse e-mail/).fill(human);
  await page.getByRole('button', { name: 'Recevoir un code' }).click();
  const codeField = page.getByLabel('Code reçu');
  await codeField.waitFor({ timeout: 5000 }).catch(async (e) => { console.error('PAGE', page.url(), (await page.content()).slice(0, 3000)); throw e; });
  await codeField.fill((await lastCode(svc, human))!);
  await page.getByRole('button', { name: 'Me connecter' }).click();
  await page.getByRole('heading', { name: 'Aujourd’hui', level: 1 }).waitFor();
  t.match(page.url(), /\/workspace$/, 'back on the workspace, signed in');

  await page.getByRole('link', { name: 'À valider' }).click();
  await page.getByText('Devis pour la mairie').waitFor();
  await page.getByRole('button', { name: 'Approuver' }).click();
  await page.getByText(/Message approuvé/).waitFor();
  await deliverDue(svc.rt, transportFor(svc.rt), s.spaceId, s.inboxId);
  t.equal((await svc.call(s.apiKey, 'get_message', { message_id: messageId })).body.status, 'sent', 'the approved message left');
  const journal = await svc.call(s.apiKey, 'list_events', { message_id: messageId });
  t.match(journal.body.events.find((e: { kind: string }) => e.kind === 'draft.approved'), { actor: { kind: 'human' } }, 'journaled as the human');

  // An audience with named contacts and a field, and a campaign over the verified domain's inbox, started
  // with the space's key (permission approve): its first messages leave as the clock moves.
  const { audience } = (await svc.call(s.apiKey, 'create_audience', { name: 'Mairies du Rhône' })).body;
  const contacts = [
    { email: 'claire.dubois@mairie-exemple.test', name: 'Claire Dubois', fields: { commune: 'Villeurbanne' } },
    { email: 'marc.lefevre@mairie-exemple.test', name: 'Marc Lefèvre', fields: { commune: 'Bron' } },
    { email: 'sophie.garnier@mairie-exemple.test', name: 'Sophie Garnier', fields: { commune: 'Vénissieux' } },
    { email: 'yann.morel@mairie-exemple.test', name: 'Yann Morel', fields: { commune: 'Caluire' } },
  ];
  t.equal((await svc.call(s.apiKey, 'add_contacts', { audience_id: audience.id, contacts })).body.added, contacts.length, 'the audience has its contacts');
  const created = await svc.call(s.apiKey, 'create_campaign', {
    name: 'Devis mairies', audience_id: audience.id, inbox_ids: [s.inboxId], subject: 'Un devis pour {{commune}}',
    text: 'Bonjour {{name}},\nnous pouvons vous proposer un devis pour {{commune}}.\n{{unsubscribe_url}}',
    follow_ups: [{ after_days: 3, text: 'Je me permets de vous relancer, {{name}}.' }],
  });
  t.equal(created.status, 200, JSON.stringify(created.body));
  const campaignId = created.body.campaign.id;
  t.equal((await svc.call(s.apiKey, 'start_campaign', { campaign_id: campaignId })).body.campaign.status, 'running', 'the campaign runs');
  for (let step = 0; step < 8; step++) {
    await feedCampaign(svc.rt, s.spaceId, campaignId);
    const next = await deliverDue(svc.rt, transportFor(svc.rt), s.spaceId, s.inboxId);
    if (next === null) break;
    clock.set(Math.max(clock.now() + 1, next));
  }
  const status = (await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaignId })).body;
  t.ok(status.figures.sent > 0, `some of the campaign's messages left: ${JSON.stringify(status.figures)}`);

  await send(svc, s, { requires_approval: true, subject: 'Relance du devis', text: 'Bonjour,\navez-vous pu lire notre devis ?' });
  mkdirSync(SHOTS, { recursive: true });
  // Some pages are shown with arguments, by the links a human follows: the campaign's performances, the
  // audience's contacts, a contact's sheet.
  const then: Partial<Record<string, () => Promise<void>>> = {
    campagnes: () => page.getByRole('heading', { name: 'Devis mairies', level: 3 }).waitFor(),
    performances: async () => {
      await page.getByRole('link', { name: 'Voir les performances' }).click();
      await page.getByText('Devis mairies — ', { exact: false }).waitFor();
    },
    audiences: async () => {
      await page.getByRole('link', { name: 'Mairies du Rhône' }).click();
      await page.getByRole('link', { name: 'claire.dubois@mairie-exemple.test' }).waitFor();
    },
    contacts: async () => {
      await page.getByRole('link', { name: 'claire.dubois@mairie-exemple.test' }).click();
      await page.getByText('Fiche du contact').waitFor();
    },
  };
  for (const name of PAGES) {
    await page.getByRole('navigation').getByRole('link', { name: TITLES[name], exact: true }).click();
    await page.getByRole('heading', { name: TITLES[name], level: 1 }).waitFor();
    await page.locator('main section, main form').first().waitFor();
    await then[name]?.();
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    t.same(await seriousViolations(page), [], `axe: nothing serious or critical in ${name}`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('link', { name: 'À valider' }).click();
  await page.getByText('Relance du devis').waitFor();
  await page.screenshot({ path: join(SHOTS, 'valider-telephone.png'), fullPage: true });
  t.same(await seriousViolations(page), [], 'axe: nothing serious on a phone either');
  await context.close();
});

t.test('a key opens it too; the session cookie acts only for the view of this service', async (t) => {
  const human = `humain-${randomBytes(3).toString('hex')}@exemple.fr`;
  const { apiKey } = await svc.space({ human });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${svc.url}/workspace?page=domaines`);
  await page.getByLabel('Clé d’API').fill(apiKey);
  await page.getByRole('button', { name: 'Ouvrir' }).click();
  await page.getByRole('heading', { name: 'Domaines', level: 1 }).waitFor();
  t.pass('signed in with a key, on the page asked for');

  // By keyboard alone: the skip link first, then the pages' links, Enter opens one.
  await page.keyboard.press('Tab');
  t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Aller au contenu');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Fils');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Fils', level: 1 }).waitFor();
  t.equal(await page.evaluate(() => document.activeElement?.id), 'page', 'the focus moves to the new page');
  await context.close();

  const cookie = await signIn(svc, human);
  const call = (headers: Record<string, string>) =>
    fetch(`${svc.url}/v1/get_settings`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, ...headers }, body: '{}' });
  const viewCall = await call({ 'x-mailbox-view': 'workspace' });
  t.equal(viewCall.status, 200, `the view with the session ${JSON.stringify(await viewCall.clone().json())}`);
  t.equal((await call({ 'x-mailbox-view': 'workspace', origin: 'https://ailleurs.example' })).status, 403, "another site's page is refused");
  t.equal((await call({})).status, 401, 'without the view header the cookie is not a key');
  const added = await fetch(`${svc.url}/v1/add_filter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-mailbox-view': 'workspace' },
    body: JSON.stringify({ direction: 'receive', action: 'block', value: 'spam-humain.example' }),
  });
  t.equal((await added.json()).filter?.created_by, 'human', 'a filter the human adds names the human, not a key');

  const html = await fetch(`${svc.url}/workspace`);
  t.match(html.headers.get('content-security-policy'), /frame-ancestors 'none'/);
  t.equal(html.headers.get('cache-control'), 'no-store');
});
