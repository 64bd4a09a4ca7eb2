/**
 * The standalone workspace at /workspace, in Chromium: the space's human signs in with a code, approves
 * a draft that then leaves (journaled as the human); each of the eleven pages is shown, screenshot for
 * docs/workspace.md and checked by axe-core; a key opens it too; another site's page cannot use the session.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import t from 'tap';
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
const svc = await startService({ env });
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

  await send(svc, s, { requires_approval: true, subject: 'Relance du devis', text: 'Bonjour,\navez-vous pu lire notre devis ?' });
  mkdirSync(SHOTS, { recursive: true });
  for (const name of PAGES) {
    await page.getByRole('navigation').getByRole('link', { name: TITLES[name], exact: true }).click();
    await page.getByRole('heading', { name: TITLES[name], level: 1 }).waitFor();
    await page.locator('main section, main form').first().waitFor();
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

  const html = await fetch(`${svc.url}/workspace`);
  t.match(html.headers.get('content-security-policy'), /frame-ancestors 'none'/);
  t.equal(html.headers.get('cache-control'), 'no-store');
});
