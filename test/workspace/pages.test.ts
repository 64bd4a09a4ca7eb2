/**
 * Every page of the workspace in Chromium at both sizes (1280x800 and 390x844) on a space as a human
 * finds it after weeks of use (test/helpers/workspace-seed.ts: 250 threads, 120 journal lines today, 2
 * campaigns, 40 contacts): a screenshot each, kept as a CI artefact (var/artifacts/workspace/, or the
 * directory WORKSPACE_SCREENSHOTS names: docs/workspace.md's images come from there); axe-core finds no
 * serious or critical violation; one h1 and no heading twice; no code a tool answers left as such; no
 * address answered 404 (the favicon included) and no script error.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { ROOT } from '../../src/paths.js';
import { seriousViolations, startBrowser } from '../helpers/browser.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startService } from '../helpers/service.js';
import { humanTab, shown, SIZES } from '../helpers/workspace-page.js';
import { seedWorkspace } from '../helpers/workspace-seed.js';

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
const seeded = await seedWorkspace(
  svc,
  clock,
  `humaine-${randomBytes(3).toString('hex')}@exemple.fr`,
  'http://127.0.0.1:9/logo.gif',
);
const browser = await startBrowser();
const SHOTS = resolve(ROOT, process.env.WORKSPACE_SCREENSHOTS || join('var', 'artifacts', 'workspace'));
mkdirSync(SHOTS, { recursive: true });

/** The workspace's pages and the object pages a human reaches by their links: a name and an address. */
const PAGES: [string, string][] = [
  ['jour', '/workspace'],
  ['valider', '/workspace/valider'],
  ['fils', '/workspace/fils'],
  ['fil', `/workspace/fils/${seeded.invoice.threadId}`],
  ['recherche', '/workspace/fils?query=livraison'],
  ['campagnes', '/workspace/campagnes'],
  ['campagne', `/workspace/campagnes/${seeded.campaigns.running}`],
  ['performances', '/workspace/performances'],
  ['audiences', '/workspace/audiences'],
  ['audience', `/workspace/audiences/${seeded.audienceId}`],
  ['contacts', '/workspace/contacts'],
  ['contact', '/workspace/contacts/contact-00%40mairie-exemple.test'],
  ['boites', '/workspace/boites'],
  ['domaines', '/workspace/domaines'],
  ['blocages', '/workspace/blocages'],
  ['espace', '/workspace/espace'],
];

/** Codes the tools answer that a page must put in words (outside what people wrote: messages, names, addresses, DNS values). */
const RAW =
  /\b(draft|queued|sending|sent|delivered|bounced|failed|rejected|cancelled|received|active|suspended|pending|verified|running|paused|finished|past_due|none|connection|manage_inboxes|approve|ownership|dkim|dmarc|unsubscribe|complaint|manual|found|absent|different|inbound|outbound)\b/;
const wordsShown = (page: Page) =>
  page.evaluate(() => {
    const copy = document.getElementById('page')!.cloneNode(true) as HTMLElement;
    for (const node of copy.querySelectorAll('code, .body, .snippet, .subject, h1, h2, .who, blockquote'))
      node.remove();
    return copy.innerText;
  });

for (const [size, viewport] of Object.entries(SIZES)) {
  t.test(
    `every page at ${viewport.width}x${viewport.height}: a screenshot, axe, one heading, every value in words, no 404`,
    async (t) => {
      const { page, missing, errors } = await humanTab(browser, svc, seeded.connection.cookie, viewport);
      for (const [name, path] of PAGES) {
        await page.goto(`${svc.url}${path}`);
        await shown(page);
        // The page from its top, 2,000 pixels at most: a long list's further items look the same.
        const height = Math.min(2000, await page.evaluate(() => document.documentElement.scrollHeight));
        await page.screenshot({
          path: join(SHOTS, `${name}${size === 'phone' ? '-telephone' : ''}.png`),
          fullPage: true,
          clip: { x: 0, y: 0, width: viewport.width, height },
        });
        t.same(await seriousViolations(page), [], `axe: nothing serious or critical in ${name}`);
        const headings = await page.evaluate(() =>
          [...document.querySelectorAll('h1, h2')].map((h) => `${h.tagName} ${h.textContent}`),
        );
        t.equal(headings.filter((h) => h.startsWith('H1')).length, 1, `${name}: one h1`);
        t.same(
          headings.filter((h, i) => headings.findIndex((other) => other.slice(3) === h.slice(3)) !== i),
          [],
          `${name}: no heading twice`,
        );
        t.notMatch(await wordsShown(page), RAW, `${name}: no code left as such`);
      }
      t.same(missing, [], 'no address answered 404, the favicon included');
      t.same(errors, [], 'no script error');
    },
  );
}
