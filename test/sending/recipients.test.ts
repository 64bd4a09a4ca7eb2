/** The one reader of recipient forms (src/sending/recipients.ts), as send_email, drafts and SMTP submission take them. */
import t from 'tap';
import { distinctCopies, parseMailbox, recipientList, mainRecipient } from '../../src/sending/recipients.js';

t.test('parseMailbox: address, Name <address>, a quoted name; null for anything else', async (t) => {
  const read: [string, ReturnType<typeof parseMailbox>][] = [
    ['Lea@Client.FR', { address: 'lea@client.fr', name: null }],
    ['  lea@client.fr  ', { address: 'lea@client.fr', name: null }],
    ['Léa Martin <LEA@client.fr>', { address: 'lea@client.fr', name: 'Léa Martin' }],
    ['Léa Martin<lea@client.fr>', { address: 'lea@client.fr', name: 'Léa Martin' }],
    ['"Martin, Léa" <lea@client.fr>', { address: 'lea@client.fr', name: 'Martin, Léa' }],
    ['"Le \\"chef\\"" <chef@client.fr>', { address: 'chef@client.fr', name: 'Le "chef"' }],
    ['<lea@client.fr>', { address: 'lea@client.fr', name: null }],
    ['Léa <>', null],
    ['Léa <pas-une-adresse>', null],
    ['Léa lea@client.fr', null],
    ['a <b> <lea@client.fr>', null],
    [`${'x'.repeat(121)} <lea@client.fr>`, null],
    ['Léa\r\nBcc: tous@client.fr <lea@client.fr>', null],
    ['', null],
  ];
  for (const [text, expected] of read) t.same(parseMailbox(text), expected, JSON.stringify(text));
});

t.test('mainRecipient: to_name fills the name; two different names are refused', async (t) => {
  t.same(mainRecipient('Léa <lea@client.fr>', null), { address: 'lea@client.fr', name: 'Léa' });
  t.same(mainRecipient('lea@client.fr', 'Léa'), { address: 'lea@client.fr', name: 'Léa' });
  t.same(mainRecipient('Léa <lea@client.fr>', 'Léa'), { address: 'lea@client.fr', name: 'Léa' });
  t.throws(() => mainRecipient('Léa <lea@client.fr>', 'Paul'), {
    code: 'invalid_argument',
    hint: { parameter: 'to_name' },
  });
  t.throws(() => mainRecipient('Léa <lea@>', null), { code: 'invalid_argument', hint: { parameter: 'to' } });
});

t.test('recipientList and distinctCopies: at most ten, each named, each address once', async (t) => {
  t.same(recipientList(undefined, 'cc'), []);
  t.throws(
    () =>
      recipientList(
        Array.from({ length: 11 }, (_, i) => `c${i}@client.fr`),
        'cc',
      ),
    { code: 'invalid_argument', hint: { parameter: 'cc' } },
  );
  t.throws(() => recipientList(['a@client.fr', 'b@'], 'bcc'), {
    code: 'invalid_argument',
    hint: { parameter: 'bcc[1]' },
  });
  const to = { address: 'lea@client.fr', name: null };
  const cc = recipientList(['LEA@client.fr', 'paul@client.fr', 'Paul <paul@client.fr>'], 'cc');
  const bcc = recipientList(['paul@client.fr', 'zoe@client.fr'], 'bcc');
  t.same(distinctCopies(to, cc, bcc), {
    cc: [{ address: 'paul@client.fr', name: null }],
    bcc: [{ address: 'zoe@client.fr', name: null }],
  });
});
