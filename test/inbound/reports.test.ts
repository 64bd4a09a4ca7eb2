/** The report parser over every real bounce and complaint of shared/fixtures/bounces: never throws, classifies. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from '../../src/paths.js';
import { parseReport } from '../../src/smtp/reports.js';

const dir = [join(ROOT, '..', 'shared', 'fixtures', 'bounces'), join(ROOT, 'shared', 'fixtures', 'bounces')].find((d) => existsSync(d));

t.test('every fixture parses; reports with a Status field are bounces; complaints and non-bounces are told apart', { skip: !dir }, async (t) => {
  const files = readdirSync(dir!).filter((f) => f.endsWith('.eml'));
  t.ok(files.length > 400, 'the whole collection is there');
  let bounces = 0;
  let withRecipient = 0;
  for (const file of files) {
    const raw = readFileSync(join(dir!, file));
    const report = parseReport(raw);
    if (file.startsWith('not-')) {
      t.equal(report, null, `${file} is not a bounce`);
      continue;
    }
    // bsd-arf-26 is Apple Mail's unsubscribe request, not a complaint: it reports nothing.
    if (file.startsWith('bsd-arf-') && file !== 'bsd-arf-26.eml') {
      t.equal(report?.kind, 'complaint', `${file} is a complaint`);
      continue;
    }
    const hasStatus = /^Status:\s*[245]\.\d/im.test(raw.toString('latin1')) && !/^Action:\s*(delayed|delivered|relayed|expanded|deliverable)/im.test(raw.toString('latin1'));
    if (hasStatus) t.equal(report?.kind, 'bounce', `${file} is a bounce`);
    if (report?.kind === 'bounce') {
      bounces++;
      if (report.recipients[0]!.recipient) withRecipient++;
      for (const r of report.recipients) t.match(r.status, /^[245]\.\d{1,3}\.\d{1,3}$/, `${file} status`);
    }
  }
  t.ok(bounces > 200, `${bounces} bounces classified`);
  t.ok(withRecipient / bounces > 0.95, `${withRecipient} of them name the failed recipient`);
});

t.test('status codes map to the stable delivery codes', async (t) => {
  const dsn = (status: string, diagnostic: string) =>
    `Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n\n--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.test\n\nFinal-Recipient: rfc822; Marie@Destinataire.test\nAction: failed\nStatus: ${status}\nDiagnostic-Code: smtp; ${diagnostic}\n\n--b--\n`;
  const first = (raw: string) => {
    const report = parseReport(raw);
    return report?.kind === 'bounce' ? report.recipients[0]! : null;
  };
  t.match(first(dsn('5.1.1', '550 5.1.1 User unknown')), { recipient: 'marie@destinataire.test', code: 'recipient_unknown', hard: true });
  t.match(first(dsn('5.2.2', '552 5.2.2 Mailbox full')), { code: 'mailbox_full', hard: true });
  t.match(first(dsn('5.7.1', '554 5.7.1 Spam')), { code: 'policy_rejected' });
  t.match(first(dsn('4.4.7', 'delivery time expired')), { code: 'smtp_4xx', hard: false });
  t.equal(parseReport('Subject: bonjour\n\nStatus: pas un rapport\n'), null);
  t.equal(parseReport(Buffer.from([0xff, 0xfe, 0x00])), null);
});
