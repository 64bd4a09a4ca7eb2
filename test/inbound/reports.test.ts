/** The report parser over every real bounce and complaint of shared/fixtures/bounces: never throws, classifies. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from '../../src/paths.js';
import { parseReport } from '../../src/smtp/reports.js';

const dir = [join(ROOT, '..', 'shared', 'fixtures', 'bounces'), join(ROOT, 'shared', 'fixtures', 'bounces')].find((d) =>
  existsSync(d),
);

t.test(
  'every fixture parses; status reports and plain-text notices are bounces; complaints and non-bounces are told apart',
  { skip: !dir },
  async (t) => {
    const files = readdirSync(dir!).filter((f) => f.endsWith('.eml'));
    t.ok(files.length > 400, 'the whole collection is there');
    let bounces = 0;
    let dsns = 0;
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
      const text = raw.toString('latin1');
      const hasStatus =
        /^Status:\s*[245]\.\d/im.test(text) &&
        !/^Action:\s*(delayed|delivered|relayed|expanded|deliverable)/im.test(text);
      if (hasStatus) t.equal(report?.kind, 'bounce', `${file} is a bounce`);
      if (hasStatus && report?.kind === 'bounce') {
        dsns++;
        if (report.recipients[0]!.recipient) withRecipient++;
      }
      // Exim and others name the failed address in this header and write the rest in prose.
      if (/^X-Failed-Recipients:/im.test(text))
        t.equal(report?.kind, 'bounce', `${file} (a plain-text notice) is a bounce`);
      if (file.startsWith('bsd-rfc3834-')) t.equal(report, null, `${file} is an automatic reply, no bounce`);
      if (report?.kind === 'bounce') {
        bounces++;
        for (const r of report.recipients) t.match(r.status, /^[245]\.\d{1,3}\.\d{1,3}$/, `${file} status`);
      }
    }
    t.ok(bounces > 340, `${bounces} bounces classified (with the plain-text notices)`);
    // The VERP address names the message; the recipient is a check, not needed by the prose notices.
    t.ok(withRecipient / dsns > 0.95, `${withRecipient} of ${dsns} status reports name the failed recipient`);
  },
);

t.test('status codes map to the stable delivery codes', async (t) => {
  const dsn = (status: string, diagnostic: string) =>
    `Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n\n--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.test\n\nFinal-Recipient: rfc822; Marie@Destinataire.test\nAction: failed\nStatus: ${status}\nDiagnostic-Code: smtp; ${diagnostic}\n\n--b--\n`;
  const first = (raw: string) => {
    const report = parseReport(raw);
    return report?.kind === 'bounce' ? report.recipients[0]! : null;
  };
  t.match(first(dsn('5.1.1', '550 5.1.1 User unknown')), {
    recipient: 'marie@destinataire.test',
    code: 'recipient_unknown',
    hard: true,
  });
  t.match(first(dsn('5.2.2', '552 5.2.2 Mailbox full')), { code: 'mailbox_full', hard: true });
  t.match(first(dsn('5.7.1', '554 5.7.1 Spam')), { code: 'policy_rejected' });
  t.match(first(dsn('4.4.7', 'delivery time expired')), { code: 'smtp_4xx', hard: false });
  t.equal(parseReport('Subject: bonjour\n\nStatus: pas un rapport\n'), null);
});

t.test(
  'plain-text failure notices: the first status of the prose, and no bounce from a delay or a person',
  async (t) => {
    const notice = (head: string, body: string) => {
      const report = parseReport(`${head}\n\n${body}`);
      return report?.kind === 'bounce' ? report.recipients[0]! : report;
    };
    const exim =
      'From: Mail Delivery System <Mailer-Daemon@mx.test>\nSubject: Mail delivery failed: returning message to sender\nX-Failed-Recipients: Marie@Destinataire.test';
    t.match(
      notice(
        exim,
        'This message was created automatically by mail delivery software.\n\n  marie@destinataire.test\n    host mx.destinataire.test [192.0.2.1]: 550 5.1.1 <marie@destinataire.test>: User unknown\n',
      ),
      {
        recipient: 'marie@destinataire.test',
        status: '5.1.1',
        code: 'recipient_unknown',
        hard: true,
        diagnostic: /^host mx\.destinataire\.test \[192\.0\.2\.1\]: 550 5\.1\.1/,
      },
    );
    const qmail = 'From: MAILER-DAEMON@mx.test\nSubject: failure notice';
    t.match(
      notice(
        qmail,
        'Hi. This is the qmail-send program.\n<a@b.test>:\nSorry, no mailbox here by that name. (#5.1.1)\n',
      ),
      { status: '5.1.1', code: 'recipient_unknown' },
    );
    t.match(
      notice(qmail, 'Server 10.5.1.1 (Lotus SMTP MTA v4.6.1) said:\n550 Requested action not taken\n'),
      { status: '5.0.0', hard: true },
      'an IP or a version is no status',
    );
    t.match(
      notice(qmail, 'Nothing more precise.\n'),
      { status: '5.0.0', code: 'smtp_5xx' },
      'sender and subject both say it failed',
    );
    t.equal(
      notice(
        'From: postmaster@mx.test\nSubject: Delivery Status Notification (Delay)',
        'Delivery to a@b.test is delayed: 451 4.4.1 try again later.\n',
      ),
      null,
      'a delay warning',
    );
    t.equal(
      notice('From: Marie <marie@destinataire.test>\nSubject: Re: Bonjour', 'Le code 5.1.1 ? Je ne comprends pas.\n'),
      null,
      'a person writing back',
    );
    t.equal(
      notice('From: postmaster@mx.test\nSubject: Bonjour', 'Rien à signaler.\n'),
      null,
      'a postmaster writing about nothing failed',
    );
    t.equal(parseReport(Buffer.from([0xff, 0xfe, 0x00])), null);
  },
);
