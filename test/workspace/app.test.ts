/**
 * The workspace as an assistant shows it: ui://workspace rendered by an ext-apps AppBridge host in a
 * sandboxed iframe, its calls going to /mcp through the official SDK client. A host that drops
 * `structuredContent` from the results it hands the app: the view reads the same answers from
 * `_meta["mailbox/structured"]`. A navigate_workspace sent to another front end in another process
 * shows its page within a second; the human approves a draft in `valider` and the message leaves; axe
 * finds nothing serious; the view's links open the same pages in a browser.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { transportFor } from '../../src/delivery/transports.js';
import { deliverDue } from '../../src/workers/send.js';
import { hostApp } from '../helpers/app-host.js';
import { seriousViolations, startBrowser } from '../helpers/browser.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { otherFrontEnd } from '../helpers/front-end.js';
import { send, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';

const env = {
  MAILBOX_MASTER_KEY: MASTER_KEY,
  SEND_WINDOW: 'always',
  MAILBOX_DATA_DIR: mkdtempSync(join(tmpdir(), 'mbx-ws-')),
  WORKSPACE_INDEX: `ws-${randomBytes(4).toString('hex')}`,
  // The view's pending wait ends this soon when the page closes: the file does not wait 18 s to stop.
  WORKSPACE_WAIT_MS: '2000',
};
const svc = await startService({ env });
const browser = await startBrowser();

t.test(
  'the MCP App, from a host that drops structuredContent: driven from another process, a draft approved and sent',
  async (t) => {
    const s = await sender(svc);
    const drafted = await send(svc, s, {
      requires_approval: true,
      subject: 'Proposition pour Lyon',
      text: 'Bonjour,\nvoici la proposition.',
    });
    t.equal(drafted.status, 200, JSON.stringify(drafted.body));
    const messageId = drafted.body.message.id;

    const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
    const client = await svc.mcp(s.apiKey);
    const opened = await hostApp(page, client, 'open_workspace', { page: 'valider' }, { stripStructured: true });
    const app = page.frameLocator('iframe');
    await app.getByRole('heading', { name: 'À valider', level: 1 }).waitFor();
    await app.getByText('Proposition pour Lyon').waitFor();
    t.equal(
      await app.getByRole('link', { name: 'Voir le fil' }).getAttribute('href'),
      `${svc.url}/workspace/fils/${drafted.body.message.thread_id}?message_id=${messageId}`,
      "a link opens the same page in a browser, at the service's address",
    );
    t.same(await seriousViolations(page.frames()[1]!), [], 'axe: nothing serious or critical in valider');

    const other = await otherFrontEnd(env);
    const asked = performance.now();
    const nav = await other.call(s.apiKey, 'navigate_workspace', { instance_id: opened.instance_id, page: 'domaines' });
    t.equal(nav.status, 200, JSON.stringify(nav.body));
    // Woken by the navigation, not by the end of its 18 s wait: the mechanism, not this machine's speed.
    await app.getByRole('heading', { name: 'Domaines', level: 1 }).waitFor({ timeout: 9000 });
    t.pass(
      `the page shows ${(performance.now() - asked).toFixed(0)} ms after navigate_workspace on the other front end, within half its wait`,
    );
    await app.getByText(s.domain, { exact: false }).first().waitFor();

    await app.getByRole('link', { name: 'À valider' }).click();
    await app.getByRole('button', { name: 'Approuver' }).click();
    t.match(
      await app.getByText(/Message approuvé/).innerText(),
      /^Message approuvé : (départ prévu|il part dans un instant)/,
      'the departure, from the answer read in _meta',
    );
    await deliverDue(svc.rt, transportFor(svc.rt), s.spaceId, s.inboxId);
    const message = await svc.call(s.apiKey, 'get_message', { message_id: messageId });
    t.equal(message.body.status, 'sent', 'the approved message left');
    const journal = await svc.call(s.apiKey, 'list_events', { message_id: messageId });
    t.ok(
      journal.body.events.some((e: { kind: string }) => e.kind === 'draft.approved'),
      'the approval is journaled',
    );
    await page.close();
  },
);

t.test('a host that hands structuredContent: the same view', async (t) => {
  const s = await sender(svc);
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const client = await svc.mcp(s.apiKey);
  await hostApp(page, client, 'open_workspace', { page: 'boites' });
  const app = page.frameLocator('iframe');
  await app.getByRole('heading', { name: 'Boîtes', level: 1 }).waitFor();
  await app.getByRole('heading', { name: /ventes@/, level: 2 }).waitFor();
  t.same(await seriousViolations(page.frames()[1]!), [], 'axe: nothing serious or critical on a phone');
  await page.close();
});
