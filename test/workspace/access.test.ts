/**
 * Who opens the workspace, in Chromium: `GET /` leads a browser there; the space's human signs in with
 * a code and comes back to the page asked; a person with a key opens it too, a wrong key is told; the
 * session cookie acts only for the view of this service. By keyboard alone, the pages and the lists'
 * « Plus ». A new space's pages: every empty state names the next step, and axe finds nothing serious.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { seriousViolations, startBrowser } from '../helpers/browser.js';
import { lastCode } from '../helpers/codes.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startService } from '../helpers/service.js';
import { signIn } from '../helpers/signin.js';
import { humanTab, shown, SIZES } from '../helpers/workspace-page.js';

const env = {
  MAILBOX_MASTER_KEY: MASTER_KEY,
  SEND_WINDOW: 'always',
  MAILBOX_DATA_DIR: mkdtempSync(join(tmpdir(), 'mbx-ws-')),
  WORKSPACE_WAIT_MS: '2000',
};
const svc = await startService({ env });
const browser = await startBrowser();
const person = (label: string) => `${label}-${randomBytes(3).toString('hex')}@exemple.fr`;

t.test(
  'GET / leads a browser to the workspace; the human signs in by code and comes back to the page asked',
  async (t) => {
    const human = person('humaine');
    await svc.space({ human });
    const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
    const page = await context.newPage();
    await page.goto(`${svc.url}/`);
    t.equal(new URL(page.url()).pathname, '/workspace', 'the root sends a browser to the workspace');
    await page.goto(`${svc.url}/workspace/domaines`);
    await page.getByRole('heading', { name: 'Connexion', level: 1 }).waitFor();
    await page.getByRole('link', { name: /Recevoir un code/ }).click();
    await page.getByLabel(/Adresse e-mail/).fill(human);
    await page.getByRole('button', { name: 'Recevoir un code' }).click();
    await page.getByLabel('Code reçu').fill((await lastCode(svc, human))!);
    await page.getByRole('button', { name: 'Me connecter' }).click();
    await shown(page, 'Domaines');
    t.equal(new URL(page.url()).pathname, '/workspace/domaines', 'back on the page asked, signed in');
    await context.close();
  },
);

t.test('a key opens it; a wrong key is told; the session cookie acts only for the view of this service', async (t) => {
  const human = person('humain');
  const { apiKey } = await svc.space({ human });
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto(`${svc.url}/workspace/blocages`);
  await page.getByLabel('Clé d’API').fill(`${apiKey.slice(0, -4)}zzzz`);
  await page.getByRole('button', { name: 'Ouvrir' }).click();
  await page.getByRole('alert').filter({ hasText: 'Cette clé n’est pas reconnue' }).waitFor();
  t.pass('a wrong key is told, not silently dropped');
  await page.getByLabel('Clé d’API').fill(apiKey);
  await page.getByRole('button', { name: 'Ouvrir' }).click();
  await shown(page, 'Blocages');
  t.pass('a key opens the page asked');
  await context.close();

  const cookie = await signIn(svc, human);
  const call = (headers: Record<string, string>) =>
    fetch(`${svc.url}/v1/get_settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...headers },
      body: '{}',
    });
  t.equal((await call({ 'x-mailbox-view': 'workspace' })).status, 200, 'the view with the session');
  t.equal(
    (await call({ 'x-mailbox-view': 'workspace', origin: 'https://ailleurs.example' })).status,
    403,
    "another site's page is refused",
  );
  t.equal((await call({})).status, 401, 'without the view header the cookie is not a key');
  const html = await fetch(`${svc.url}/workspace/fils`);
  t.match(html.headers.get('content-security-policy'), /frame-ancestors 'none'/);
  t.equal(html.headers.get('cache-control'), 'no-store');
});

t.test(
  'a new space: every page by keyboard alone, each empty state names the next step, nothing serious for axe',
  async (t) => {
    const human = person('nouvelle');
    await svc.space({ human });
    const { page, missing, errors } = await humanTab(browser, svc, await signIn(svc, human), SIZES.phone);
    await page.goto(`${svc.url}/workspace`);
    await shown(page, 'Aujourd’hui');
    await page.keyboard.press('Tab');
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Aller au contenu', 'the skip link first');
    const titles = [
      'Aujourd’hui',
      'À valider',
      'Fils',
      'Campagnes',
      'Performances',
      'Audiences',
      'Contacts',
      'Boîtes',
      'Domaines',
      'Blocages',
      'Espace',
    ];
    for (const [i, title] of titles.entries()) {
      // From the skip link, the pages' links in order: Tab to the i-th, Enter opens it.
      await page.evaluate(() => (document.querySelector('.skip') as HTMLElement).focus());
      for (let n = 0; n <= i; n++) await page.keyboard.press('Tab');
      t.equal(await page.evaluate(() => document.activeElement?.textContent), title);
      await page.keyboard.press('Enter');
      await shown(page, title);
      // The page is read before the focus moves: on the page already shown, its heading is there at once.
      await page
        .waitForFunction(() => document.activeElement?.id === 'page', null, { timeout: 5000 })
        .catch(() => undefined);
      t.equal(await page.evaluate(() => document.activeElement?.id), 'page', `${title}: the focus moves to the page`);
      const empties = await page.locator('.empty').allInnerTexts();
      for (const text of empties)
        t.match(text, /(ici|ci-dessous|avec|essayez|voir|un agent)/i, `${title}: « ${text} » names a next step`);
      t.same(await seriousViolations(page), [], `axe: ${title}, empty`);
    }
    t.same(missing, [], 'no 404');
    t.same(errors, [], 'no script error');
  },
);
