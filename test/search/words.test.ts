/** src/mail/words.ts: the one rule for what a message is indexed under and what a query asks. */
import t from 'tap';
import { fold, messageWords, queryTerms, snippet, WORDS_PER_MESSAGE_MAX } from '../../src/mail/words.js';

t.test('case, accents (composed or not) and ligatures fold away', async (t) => {
  t.equal(fold('ÉTÉ Œuvre Straße'), 'ete oeuvre strasse');
  t.equal(fold('e\u0301te\u0301'), 'ete', 'an e with a combining accent');
  t.same(
    messageWords({ subject: 'e\u0301te\u0301', address: '', name: '', text: 'été' }),
    ['ete'],
    'one word either way',
  );
  t.equal(fold('𝐅𝐚𝐜𝐭𝐮𝐫𝐞 ℌello'), 'facture hello', 'letters NFKD writes as capitals are lowercased too');
});

t.test('a letter NFKD writes as several words gives those words: never one with a space', async (t) => {
  const words = messageWords({ subject: '', address: '', name: '', text: 'Paix sur le Prophète ﷺ ; Hanil ; 𝐅𝐚𝐜𝐭𝐮𝐫𝐞' });
  t.same(words, ['paix', 'prophete', 'صلى', 'الله', 'عليه', 'وسلم', 'hanil', 'facture']);
  t.notOk(words.some((word) => /\s/.test(word)));
  t.same(queryTerms('ﷺ'), { words: ['صلى', 'الله', 'عليه'], prefix: 'وسلم' }, 'a query folds the same way');
});

t.test(
  "a message's words: subject, correspondent, then text; stop words, short and long ones left out; capped",
  async (t) => {
    const words = messageWords({
      subject: 'Re: Devis n° 12',
      address: 'jean.dupont@exemple.fr',
      name: 'Jean Dupont',
      text: `Voici le devis. ${'x'.repeat(33)} a`,
    });
    t.same(words, ['devis', '12', 'jean', 'dupont', 'exemple', 'fr', 'voici']);
    const long = Array.from({ length: 500 }, (_, i) => `mot${i}`).join(' ');
    t.equal(messageWords({ subject: '', address: '', name: '', text: long }).length, WORDS_PER_MESSAGE_MAX);
  },
);

t.test('a query: its last kept word is the prefix; stop words count only alone', async (t) => {
  t.same(queryTerms('Échéance  FACT'), { words: ['echeance'], prefix: 'fact' });
  t.same(queryTerms('rendez vous'), { words: [], prefix: 'rendez' });
  t.same(queryTerms('de'), { words: [], prefix: 'de' });
  t.same(queryTerms('devis devis'), { words: [], prefix: 'devis' }, 'a repeated word once');
  t.equal(queryTerms('! x ?'), null);
});

t.test('a snippet is cut on words around the first match', async (t) => {
  const text = `${'avant '.repeat(40)}la facture est jointe ${'après '.repeat(40)}`;
  const cut = snippet(text, { words: [], prefix: 'factu' });
  t.match(cut, /^…(avant )+la facture est jointe (après )+après…$/);
  t.ok(cut.length <= 162);
  t.equal(
    snippet('Bonjour Marie', { words: [], prefix: 'zz' }),
    'Bonjour Marie',
    'the start when the text does not match',
  );
});
