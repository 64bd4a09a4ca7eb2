/**
 * The workspace as an assistant shows it: ui://workspace rendered by an ext-apps AppBridge host in a
 * sandboxed iframe, its calls going to /mcp through the official SDK client. A navigate_workspace sent
 * to another front end in another process shows its page within a second; the human approves a draft
 * in `valider` and the message leaves; axe finds nothing serious.
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
  MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', MAILBOX_DATA_DIR: mkdtempSync(join(tmpdir(), 'mbx-ws-')), WORKSPACE_INDEX: `ws-${randomBytes(4).toString('hex')}`,
  // The view's pending wait ends this soon when the page closes: the file does not wait 18 s to stop.
  WORKSPACE_WAIT_MS: '2000',
};
const svc = await startService({ env });
const browser = await startBrowser();

t.test('the MCP App: rendered by a host, driven from another process, a draft approved and sent', async (t) => {
  const s = await sender(svc);
  const drafted = await send(svc, s, { requires_approval: true, subject: 'Proposition pour Lyon', text: 'Bonjour,\nvoici la proposition.' });
  t.equal(drafted.status, 200, JSON.stringify(drafted.body));
  const messageId = drafted.body.message.id;

  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  const client = await svc.mcp(s.apiKey);
  const opened = await hostApp(page, client, 'open_workspace', { page: 'valider' });
  const app = page.frameLocator('iframe');
  await app.getByRole('heading', { name: 'À valider', level: 1 }).waitFor();
  await app.getByText('Proposition pour Lyon').waitFor();
  t.same(await seriousViolations(page.frames()[1]!), [], 'axe: nothing serious or critical in valider');

  const other = await otherFrontEnd(env);
  const asked = performance.now();
  const nav = await other.call(s.apiKey, 'navigate_workspace', { instance_id: opened.instance_id, page: 'domaines' });
  t.equal(nav.status, 200, JSON.stringify(nav.body));
  await app.getByRole('heading', { name: 'Domaines', level: 1 }).waitFor({ timeout: 5000 });
  const ms = performance.now() - asked;
  t.ok(ms < 1000, `the page shows ${ms.toFixed(0)} ms after navigate_workspace on the other front end`);
  await app.getByText(s.domain, { exact: false }).first().waitFor();

  await app.getByRole('link', { name: 'À valider' }).click();
  await app.getByRole('button', { name: 'Approuver' }).click();
  await app.getByText(/Message approuvé/).waitFor();
  await deliverDue(svc.rt, transportFor(svc.rt), s.spaceId, s.inboxId);
  const message = await svc.call(s.apiKey, 'get_message', { message_id: messageId });
  t.equal(message.body.status, 'sent', 'the approved message left');
  const journal = await svc.call(s.apiKey, 'list_events', { message_id: messageId });
  t.ok(journal.body.events.some((e: { kind: string }) => e.kind === 'draft.approved'), 'the approval is journaled');
  await page.close();
});
