/** Which inbound messages a robot sent (RFC 3834 headers, out-of-office subjects), and the new part of a reply, without a server. */
import { Readable } from 'node:stream';
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { isAutomatic, replyText, threadSnippet } from '../../src/mail/content.js';
import { parseStream, type Parsed } from '../../src/smtp/parse.js';

const noHeaders = () => null;

t.test('out-of-office subjects, in French and English', async (t) => {
  for (const subject of [
    'Réponse automatique : Rendez-vous',
    'Automatic reply: Meeting',
    'Out of Office: Proposal',
    "Message d'absence",
    'Absent du bureau',
    'Absente jusqu’au 2 janvier',
    "RE: Absent jusqu'au 30 novembre",
    "En congés jusqu'au lundi 7",
    'Je suis absente',
  ])
    t.ok(isAutomatic(noHeaders, subject), subject);
});

t.test('a person writing about an absence or a leave is not a robot', async (t) => {
  for (const subject of [
    'Re: Absence de facture',
    'Absence de réponse de votre part',
    'Re: Absent du devis : le prix',
    'En congé maternité ?',
    'Re: Absente ce jeudi ?',
    'Re: Rendez-vous',
  ]) {
    t.notOk(isAutomatic(noHeaders, subject), subject);
  }
});

t.test('headers say it whatever the subject', async (t) => {
  const headers = (values: Record<string, string>) => (name: string) => values[name] ?? null;
  t.ok(isAutomatic(headers({ 'auto-submitted': 'auto-replied' }), 'Re: Rendez-vous'));
  t.notOk(isAutomatic(headers({ 'auto-submitted': 'no' }), 'Re: Rendez-vous'));
  t.ok(isAutomatic(headers({ 'x-autoreply': 'yes' }), 'Bonjour'));
  t.ok(isAutomatic(headers({ precedence: 'bulk' }), 'Bonjour'));
  t.notOk(isAutomatic(headers({ precedence: 'first-class' }), 'Bonjour'));
});

/** An HTML-only reply as Gmail writes it: the attribution in a gmail_attr div, the history in a blockquote. */
const gmailReply = [
  'From: Jean-Christophe <jean-christophe.delarochefoucauld@exemple-entreprise.fr>',
  'To: agent@mx.test',
  'Subject: Re: Rendez-vous',
  'MIME-Version: 1.0',
  'Content-Type: text/html; charset=UTF-8',
  'Content-Transfer-Encoding: 8bit',
  '',
  '<div dir="ltr">Merci, mardi 10 h me convient parfaitement.<div><br></div><div>Bien à vous,</div><div>Jean-Christophe</div></div><br>' +
    '<div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">Le lun. 23 nov. 2026 à 09:00, Jean-Christophe de La Rochefoucauld-Montmorency ' +
    '&lt;<a href="mailto:jean-christophe.delarochefoucauld@exemple-entreprise.fr">jean-christophe.delarochefoucauld@exemple-entreprise.fr</a>&gt; a écrit&nbsp;:<br></div>' +
    '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">Bonjour,<br><br>Nous vous proposons un rendez-vous mardi à 10 h.<br><br>Cordialement,<br>L\'équipe</blockquote></div>',
  '',
].join('\r\n');

t.test(
  'an HTML-only Gmail reply: its long attribution, wrapped by the HTML-to-text step, is not part of reply_text',
  async (t) => {
    const facts = { ip: '127.0.0.1', helo: 'mail.test', mailFrom: '', mta: 'mx.test', resolver: async () => [] };
    const parsed = (await parseStream(Readable.from([Buffer.from(gmailReply)]), facts, {
      rawMax: 0,
      limits: loadConfig({}).smtpMessage,
      content: loadConfig({}).content,
    })) as Parsed;
    t.match(parsed.mail.text, /Montmorency\n/, 'the text version wraps the attribution');
    t.equal(
      replyText(parsed.mail.text),
      'Merci, mardi 10 h me convient parfaitement.\n\n\nBien à vous,\nJean-Christophe',
    );
  },
);

t.test('an HTML-only mail that carries an attachment still gets its text version', async (t) => {
  const source = [
    'From: Paul <paul@exemple.fr>',
    'To: agent@mx.test',
    'Subject: Facture',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/html; charset=UTF-8',
    '',
    '<p>Bonjour,</p><p>Voici la facture de novembre.</p>',
    '--b1',
    'Content-Type: text/csv; name="facture.csv"',
    'Content-Disposition: attachment; filename="facture.csv"',
    '',
    'ref;montant',
    'F-11;1250',
    '--b1--',
    '',
  ].join('\r\n');
  const facts = { ip: '127.0.0.1', helo: 'mail.test', mailFrom: '', mta: 'mx.test', resolver: async () => [] };
  const parsed = (await parseStream(Readable.from([Buffer.from(source)]), facts, {
    rawMax: 0,
    limits: loadConfig({}).smtpMessage,
    content: loadConfig({}).content,
  })) as Parsed;
  t.match(parsed.mail.text, /Voici la facture de novembre\./, 'the HTML read as text');
  t.equal(parsed.mail.attachments.length, 1, 'the attachment kept');
});

t.test(
  'attributions wrapped over a few lines by the sender\'s client; a paragraph that only starts with "Le" stays',
  async (t) => {
    t.equal(
      replyText('Oui.\n\nOn Mon, Nov 23, 2026 at 9:00 AM Marie-Hélène\nDupont-Lefebvre <mh@x.test>\nwrote:\n> Bonjour'),
      'Oui.',
    );
    t.equal(replyText('Oui.\nLe 23/11/2026 à 09:00, Paul\n<paul@x.test> a écrit :\n> Bonjour'), 'Oui.');
    const paragraph = 'Le devis suit, avec la remise que Paul\nvous a écrit :\ndix pour cent.';
    t.equal(replyText(paragraph), paragraph);
  },
);

t.test("a snippet read from the new part's first lines is the one the whole new part gives", async (t) => {
  /** The snippet by its definition: the whole new part, spaces collapsed, cut on a word within 100 characters. */
  const defined = (text: string): string => {
    const letters = Array.from(replyText(text.slice(0, 8192)).replace(/\s+/g, ' ').trim());
    if (letters.length <= 100) return letters.join('');
    const head = letters.slice(0, 100).join('');
    const space = head.lastIndexOf(' ');
    return `${(space > head.length / 2 ? head.slice(0, space) : head).trimEnd()}…`;
  };
  const prose = 'Bonjour Marie, voici le devis demandé pour la commande de mars et ses options. ';
  const texts = [
    'Oui.',
    `${prose.repeat(8)}\n\nLe lun. 23 nov. 2026 à 09:00, Paul <p@x.fr> a écrit :\n> ancien`,
    `Merci.\nLe\n23/11/2026 à 09:00, Paul <p@x.fr> a écrit :\n> ${prose}`,
    `${' \n'.repeat(300)}${prose.repeat(3)}`,
    `${'\t'.repeat(500)}Court.\n-- \nSignature ${prose}`,
    `${'😀 '.repeat(60)}${prose}`,
    `${'x'.repeat(99)}😀😀 suite`,
    `Voir plus bas.\n${'On '.repeat(200)}\nwrote:\n> cité`,
    `${prose.repeat(200)}`,
  ];
  for (const text of texts) t.equal(threadSnippet(text), defined(text), JSON.stringify(text.slice(0, 40)));
});
