/**
 * The workspace in a browser (Chromium) on a space as a human finds it after weeks of use (250
 * threads, 120 journal lines today, 2 campaigns, 40 contacts: test/helpers/workspace-seed.ts), each
 * step a tab of one browser: each list pages on to its last item; reload, Back and Forward keep the
 * place; each object's link opens it; a thread is read when opened, its PDF downloads with its bytes,
 * its HTML version shows on request without remote content until asked; drafts are approved (the
 * departure in words), edited, cancelled; a campaign paused and resumed; an assistant's access removed
 * from Espace, after which its MCP calls get 401. Every page at both sizes: pages.test.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { seriousViolations, startBrowser } from '../helpers/browser.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startService } from '../helpers/service.js';
import { humanTab, shown, SIZES } from '../helpers/workspace-page.js';
import { PDF, SEED, seedWorkspace } from '../helpers/workspace-seed.js';

// Chromium's work counts in the file's time: on a loaded machine the walk takes minutes.
t.setTimeout(300_000);
const env = {
  MAILBOX_MASTER_KEY: MASTER_KEY,
  SEND_WINDOW: 'always',
  MAILBOX_DATA_DIR: mkdtempSync(join(tmpdir(), 'mbx-ws-')),
  WORKSPACE_WAIT_MS: '2000',
};
const clock = new ManualClock(Date.now());
const svc = await startService({ clock, env });

/** A server of remote images: the test counts what the browser asked of it. */
const imageHits: string[] = [];
const images = createServer((request, response) => {
  imageHits.push(request.url ?? '');
  response.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
});
await new Promise<void>((done) => images.listen(0, '127.0.0.1', done));
t.teardown(() => void images.close());
const seeded = await seedWorkspace(
  svc,
  clock,
  `humaine-${randomBytes(3).toString('hex')}@exemple.fr`,
  `http://127.0.0.1:${(images.address() as { port: number }).port}/logo.gif`,
);
const browser = await startBrowser();
const humanPage = (size: { width: number; height: number }) => humanTab(browser, svc, seeded.connection.cookie, size);

/** Clicks « Plus » until the list has no more, and answers how many items it shows. */
async function toTheEnd(page: Page, list: string): Promise<number> {
  for (let more = page.locator('button.more'); await more.count();) {
    const before = await page.locator(`${list} > li`).count();
    await more.click();
    await page.waitForFunction(([selector, n]) => document.querySelectorAll(`${selector} > li`).length > n, [
      list,
      before,
    ] as const);
  }
  return page.locator(`${list} > li`).count();
}

t.test(
  'a thread: read when opened, each message whole, the PDF with its bytes, the HTML version asked for',
  async (t) => {
    const thread = () =>
      svc.call(seeded.s.apiKey, 'get_thread', { thread_id: seeded.invoice.threadId }).then((r) => r.body.thread);
    t.equal((await thread()).unread, true, 'unread before');
    const { page } = await humanPage(SIZES.phone);
    const marked = page.waitForResponse((response) => response.url().endsWith('/v1/classify_thread'));
    await page.goto(`${svc.url}/workspace/fils/${seeded.invoice.threadId}`);
    await shown(page, seeded.invoice.subject);
    t.equal((await marked).status(), 200);
    t.equal((await thread()).unread, false, 'opening the thread marked it read');
    const line = (await svc.call(seeded.s.apiKey, 'list_events', { thread_id: seeded.invoice.threadId })).body
      .events[0];
    t.match(line, { kind: 'thread.classified', actor: { kind: 'human' } }, 'journaled as the human');

    const body = page.locator('ol.messages .body').first();
    t.match(await body.innerText(), /Ligne 60 de la facture détaillée/, 'the whole text');
    t.same(
      await body.evaluate((node) => [getComputedStyle(node).overflowY, node.scrollHeight <= node.clientHeight + 1]),
      ['visible', true],
      'in no clipped box',
    );

    const link = page.getByRole('link', { name: 'facture-novembre.pdf' });
    t.match(await page.locator('ul.attachments li').innerText(), /PDF, 412\u00a0octets/, 'its type and size in words');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    t.equal(download.suggestedFilename(), 'facture-novembre.pdf');
    t.same(readFileSync(await download.path()), PDF, 'the PDF downloads with identical bytes');
    t.match(await link.getAttribute('href'), new RegExp(`^${svc.url}/a/`), 'through the signed link of get_attachment');

    t.same(imageHits, [], 'no remote content before the HTML version is asked for');
    await page.getByRole('button', { name: 'Afficher la version HTML' }).click();
    const frame = page.locator('iframe.html');
    await frame.waitFor();
    t.equal(
      await frame.getAttribute('sandbox'),
      'allow-same-origin allow-popups allow-popups-to-escape-sandbox',
      'a frame that runs no script',
    );
    await page.frameLocator('iframe.html').getByText('facture de novembre').waitFor();
    t.same(imageHits, [], 'its remote image not loaded');
    t.ok(
      await frame.evaluate(
        (node: HTMLIFrameElement) => node.offsetHeight >= node.contentDocument!.documentElement.scrollHeight,
      ),
      'the frame as tall as the message',
    );
    const fetched = page.waitForResponse((response) => response.url().endsWith('/logo.gif'));
    await page.getByRole('button', { name: 'Afficher les images distantes' }).click();
    await page.frameLocator('iframe.html').getByRole('img', { name: 'Logo du fournisseur' }).waitFor();
    await fetched;
    t.same(imageHits, ['/logo.gif'], 'loaded once the human asked');
    t.same(await seriousViolations(page), [], 'axe: nothing serious with the HTML version shown');
  },
);

t.test(
  'lists page on to their last item; reload, Back and Forward keep the place; links open their objects',
  async (t) => {
    const { page } = await humanPage(SIZES.desktop);
    const total = async (tool: string, key: string, args: Record<string, unknown> = {}) => {
      let count = 0;
      let cursor: string | undefined;
      do {
        const body = (await svc.call(seeded.s.apiKey, tool, { ...args, ...(cursor ? { cursor } : {}) })).body;
        count += body[key].length;
        cursor = body.next_cursor ?? undefined;
      } while (cursor);
      return count;
    };
    await page.goto(`${svc.url}/workspace`);
    await shown(page, 'Aujourd’hui');
    t.ok((await total('list_events', 'events')) >= SEED.journalToday, 'the journal of today holds its 120 lines');
    t.equal(
      await toTheEnd(page, 'ol.journal'),
      await total('list_events', 'events'),
      'Aujourd’hui: every line of the day',
    );
    await page.getByRole('navigation').getByRole('link', { name: 'Fils' }).click();
    await shown(page, 'Fils');
    t.equal(
      await toTheEnd(page, 'ul.threads'),
      await total('list_threads', 'items'),
      'Fils: every thread not archived, 20 at a time',
    );
    await page.getByRole('navigation').getByRole('link', { name: 'À valider' }).click();
    await shown(page, 'À valider');
    t.equal(await toTheEnd(page, 'ul.cards'), SEED.drafts, 'À valider: every draft');
    await page.getByRole('navigation').getByRole('link', { name: 'Blocages' }).click();
    await shown(page, 'Blocages');
    t.equal(await toTheEnd(page, 'ul.list'), await total('list_suppressions', 'items'), 'Blocages: every block');
    await page.goto(`${svc.url}/workspace/audiences/${seeded.audienceId}`);
    await shown(page, 'Mairies du Rhône');
    t.equal(await toTheEnd(page, 'ul.list'), SEED.contacts, 'an audience: its 40 contacts');

    // Filters and the search are in the address.
    await page.goto(`${svc.url}/workspace/fils`);
    await shown(page, 'Fils');
    await page.getByLabel('Étiquette').fill('devis');
    await page.getByLabel('Non lus seulement').check();
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await page.waitForURL(/\/workspace\/fils\?label=devis&unread=true$/);
    // The address changes before the filtered list replaces the whole one: paged only once every row is one of it.
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('ul.threads > li')];
      const filteredRow = (row: Element) =>
        row.classList.contains('unread') &&
        [...row.querySelectorAll('span.label')].some((l) => l.textContent === 'devis');
      return rows.length > 0 && rows.every(filteredRow);
    });
    const filtered = await total('list_threads', 'items', { label: 'devis', unread: true });
    t.equal(await toTheEnd(page, 'ul.threads'), filtered, 'the filtered list: label and unread');
    await page.getByRole('searchbox', { name: 'Chercher dans le courrier' }).fill('facture novembre');
    await page.getByRole('button', { name: 'Chercher' }).click();
    await shown(page, 'Recherche « facture novembre »');
    await page.getByRole('link', { name: seeded.invoice.subject }).click();
    await shown(page, seeded.invoice.subject);
    t.equal(new URL(page.url()).pathname, `/workspace/fils/${seeded.invoice.threadId}`, 'a thread has its address');

    await page.reload();
    await shown(page, seeded.invoice.subject);
    t.pass('reload keeps the thread');
    await page.goBack();
    await shown(page, 'Recherche « facture novembre »');
    t.match(page.url(), /\/workspace\/fils\?query=facture\+novembre/, 'Back: the search');
    await page.goBack();
    await shown(page, 'Fils');
    t.match(page.url(), /label=devis/, 'Back again: the filtered list');
    await page.goForward();
    await shown(page, 'Recherche « facture novembre »');
    t.pass('Forward');

    // Each object's link opens it: a campaign, its audience, a contact, the contact's campaign.
    await page.getByRole('navigation').getByRole('link', { name: 'Campagnes' }).click();
    await page.getByRole('link', { name: 'Devis mairies' }).click();
    await shown(page, 'Devis mairies');
    t.equal(new URL(page.url()).pathname, `/workspace/campagnes/${seeded.campaigns.running}`);
    await page.getByRole('link', { name: /Voir les contacts de son audience/ }).click();
    await shown(page, 'Mairies du Rhône');
    await page.getByRole('link', { name: /contact-00@mairie-exemple\.test/ }).click();
    await shown(page, /Claire|Marc|Sophie|Yann|Élodie|Karim|Nadia|Paul|Inès|Hugo/);
    t.match(decodeURIComponent(page.url()), /\/workspace\/contacts\/contact-00@mairie-exemple\.test$/);
    await page.getByRole('link', { name: 'Devis mairies' }).click();
    await shown(page, 'Devis mairies');
    // A journal line opens what it is about.
    await page.getByRole('navigation').getByRole('link', { name: 'Aujourd’hui' }).click();
    await shown(page, 'Aujourd’hui');
    await page.locator('ol.journal a', { hasText: 'Création de la campagne « Relance printemps »' }).click();
    await shown(page, 'Relance printemps');
    t.equal(
      new URL(page.url()).pathname,
      `/workspace/campagnes/${seeded.campaigns.draft}`,
      'a journal line links to its object',
    );
  },
);

t.test(
  'drafts: what each answers and who wrote it; edit then give up; approve with the departure in words; cancel',
  async (t) => {
    const { page } = await humanPage(SIZES.desktop);
    await page.goto(`${svc.url}/workspace/valider`);
    await shown(page, 'À valider');
    const card = page.locator('ul.cards > li').first();
    t.match(
      await card.locator('.meta').first().innerText(),
      /écrit par l’agent « rédacteur »/,
      'the agent that wrote it',
    );
    t.match(
      await card.locator('blockquote.answered').innerText(),
      /En réponse à .*client-exemple\.test, reçu .*\n+Bonjour,/s,
      'the message it answers',
    );
    const subject = await card.locator('h2').innerText();

    await card.getByRole('button', { name: 'Modifier' }).click();
    await page.getByLabel('Texte').fill('Un texte que je ne garde pas.');
    await page.getByRole('button', { name: 'Abandonner la modification' }).click();
    t.notMatch(
      await page.locator('ul.cards > li').first().innerText(),
      /je ne garde pas/,
      'given up: the draft as it was',
    );
    await page.locator('ul.cards > li').first().getByRole('button', { name: 'Modifier' }).click();
    await page.getByLabel('Texte').fill('Bonjour,\nvoici notre proposition corrigée.');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Brouillon modifié').waitFor();
    t.match(await page.locator('ul.cards > li').first().innerText(), /proposition corrigée/, 'the correction shown');

    await page.locator('ul.cards > li').first().getByRole('button', { name: 'Approuver' }).click();
    const said = await page.locator('#status').filter({ hasText: 'Message approuvé' }).innerText();
    t.match(
      said,
      /^Message approuvé : (départ prévu \S+ \d+\u00a0\S+ à \d+\u00a0h\u00a0\d\d|il part dans un instant)\.$/,
      `the departure in words: ${said}`,
    );
    t.notMatch(await page.locator('ul.cards').innerText(), subject, 'the approved draft left the list');

    const next = page.locator('ul.cards > li').first();
    const nextSubject = await next.locator('h2').innerText();
    await next.getByRole('button', { name: 'Annuler l’envoi' }).click();
    await next.getByRole('button', { name: 'Annuler le brouillon' }).click();
    await page.getByText('Brouillon annulé').waitFor();
    t.equal(
      await page.locator('ul.cards > li h2', { hasText: nextSubject }).count(),
      0,
      'the cancelled draft left the list',
    );
  },
);

t.test('campaigns: progress, rates and next departure; pause and resume', async (t) => {
  const { page } = await humanPage(SIZES.desktop);
  await page.goto(`${svc.url}/workspace/campagnes/${seeded.campaigns.running}`);
  await shown(page, 'Devis mairies');
  t.match(
    await page.locator('.progress').innerText(),
    /[1-9]\d*\scontacts? écrits? sur 40/,
    'progress: written of recipients',
  );
  t.match(
    await page.locator('dl.figures').first().innerText(),
    /Réponses\s+\d+\u00a0%.*Rebonds.*Désinscriptions.*Prochain départ/s,
  );
  await page.getByRole('button', { name: 'Mettre en pause' }).click();
  await page.getByText('Campagne « Devis mairies » en pause').waitFor();
  t.equal(
    (await svc.call(seeded.s.apiKey, 'campaign_status', { campaign_id: seeded.campaigns.running })).body.campaign
      .status,
    'paused',
  );
  await page.getByRole('button', { name: 'Reprendre la campagne' }).click();
  await page.getByText('Campagne « Devis mairies » reprise').waitFor();
  const journal = (await svc.call(seeded.s.apiKey, 'list_events', { campaign_id: seeded.campaigns.running })).body
    .events;
  t.match(
    journal.slice(0, 2),
    [
      { kind: 'campaign.started', actor: { kind: 'human' } },
      { kind: 'campaign.paused', actor: { kind: 'human' } },
    ],
    'journaled as the human',
  );
});

t.test("Espace: an assistant's access removed, confirmed; its next MCP call gets 401", async (t) => {
  const mcp = (token: string) =>
    fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_settings', arguments: {} },
      }),
    });
  t.equal((await mcp(seeded.connection.token)).status, 200, 'the assistant is connected');
  const { page } = await humanPage(SIZES.phone);
  await page.goto(`${svc.url}/workspace/espace`);
  await shown(page, 'Espace');
  const access = page.locator('li', { hasText: seeded.connection.name });
  t.match(await access.innerText(), /assistant connecté.*Permissions : envoi, lecture/s, 'the permissions in words');
  await access.getByRole('button', { name: 'Retirer l’accès' }).click();
  t.match(await access.getByRole('alert').innerText(), /cessera de répondre aussitôt/, 'asked first');
  await access.getByRole('button', { name: 'Retirer l’accès' }).click();
  await page.getByText(`Accès « ${seeded.connection.name} » retiré.`).waitFor();
  t.equal((await mcp(seeded.connection.token)).status, 401, 'its next MCP call: 401');
  t.equal(await page.locator('li', { hasText: seeded.connection.name }).count(), 0, 'gone from the list');
});
