/** Which inbound messages a robot sent (RFC 3834 headers, out-of-office subjects), without a server. */
import t from 'tap';
import { isAutomatic } from '../../src/mail/content.js';

const noHeaders = () => null;

t.test('out-of-office subjects, in French and English', async (t) => {
  for (const subject of [
    'Réponse automatique : Rendez-vous',
    'Automatic reply: Meeting',
    'Out of Office: Proposal',
    "Message d'absence",
    'Absent du bureau',
    'Absente jusqu’au 2 janvier',
    'RE: Absent jusqu\'au 30 novembre',
    'En congés jusqu\'au lundi 7',
    'Je suis absente',
  ]) t.ok(isAutomatic(noHeaders, subject), subject);
});

t.test('a person writing about an absence or a leave is not a robot', async (t) => {
  for (const subject of ['Re: Absence de facture', 'Absence de réponse de votre part', 'Re: Absent du devis : le prix', 'En congé maternité ?', 'Re: Absente ce jeudi ?', 'Re: Rendez-vous']) {
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
