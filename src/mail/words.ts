/**
 * The words of the search index (actors/search.ts, docs/architecture.md "Search"): one rule for what a
 * message is indexed under and for what a query asks, so both sides always agree. A word is a run of
 * letters and digits, case and accents folded (é, É and e are one word; œ is oe), of 2 to 32
 * characters, and not one of the commonest French and English words.
 */

const WORD_MIN = 2;
const WORD_MAX = 32;
/** Distinct words kept per message, the subject's and correspondent's first: a long newsletter costs no more than this. */
export const WORDS_PER_MESSAGE_MAX = 200;
/** Characters of a body read for its words (about 20 pages of text: what follows rarely adds a word). */
const TEXT_READ_MAX = 64 * 1024;

/** Letters NFKD leaves whole: folded by hand, as a reader expects (oeuvre finds œuvre). */
const LIGATURES: Record<string, string> = {
  œ: 'oe',
  æ: 'ae',
  ß: 'ss',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  ı: 'i',
  þ: 'th',
  ð: 'd',
};
const LIGATURE = /[œæßøđłıþð]/g;
const MARKS = /\p{M}+/gu;
const ASCII = /^[\0-\x7f]*$/;
// Marks too: a text may spell é as e and a combining accent, one word all the same.
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
// What is left of a word once folded: NFKD can write one letter as several words (ﷺ is four, with
// spaces between them), and the store scripts split a message's words on spaces.
const FOLDED_WORD = /[\p{L}\p{N}]+/gu;

/**
 * Words found in nearly every message: indexed, they would cost memory without narrowing any search.
 * Folded as indexed words are (no accents).
 */
const STOP_WORDS = new Set(
  (
    'au aux avec ce ces cette dans de des du elle en et eux il ils je la le les leur lui ma mais me meme mes moi mon ne nos notre nous on ou par ' +
    'pas pour qu que qui sa se ses son sur ta te tes toi ton tu un une vos votre vous est sont etre avoir ai as avons avez ont ca ci cela re tr fwd fw ' +
    'a an and are as at be but by for from has have he her his if in into is it its me my no not of on or our she so that the their them ' +
    'then there these they this to was we were what when which who will with you your'
  ).split(' '),
);

/**
 * Lowercase, accents and ligatures folded: the form every indexed word has. Lowercased after the
 * decomposition, which can give capitals (𝐅 is F, ℌ is H).
 */
export function fold(text: string): string {
  // Most words are plain ASCII: nothing to decompose, no mark or ligature (the slow part, per word).
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(MARKS, '')
    .replace(LIGATURE, (letter) => LIGATURES[letter]!);
}

/** The words a run of letters stands for once folded: itself, or the several NFKD wrote it as. */
const foldedWords = (match: string): string[] =>
  ASCII.test(match) ? [match.toLowerCase()] : (fold(match).match(FOLDED_WORD) ?? []);

const indexable = (word: string): boolean =>
  word.length >= WORD_MIN && word.length <= WORD_MAX && !STOP_WORDS.has(word);

/** Each folded word of `text` in order, with where it starts in `text` (snippets cut around it). */
function* wordsWithOffsets(text: string): Generator<{ word: string; at: number; length: number }> {
  for (const match of text.matchAll(WORD)) {
    for (const word of foldedWords(match[0])) yield { word, at: match.index, length: match[0].length };
  }
}

/** What a message is found by: its subject, its correspondent's address and name, and its text. */
export interface Indexed {
  subject: string;
  /** The other side: the sender of a received message, the recipient of a sent one. */
  address: string;
  name: string;
  text: string;
}

/** The message's distinct words, at most WORDS_PER_MESSAGE_MAX: subject, address, name, then text. */
export function messageWords(message: Indexed): string[] {
  const words = new Set<string>();
  for (const part of [message.subject, message.address, message.name, message.text.slice(0, TEXT_READ_MAX)]) {
    for (const [match] of part.matchAll(WORD)) {
      for (const word of foldedWords(match)) {
        if (!indexable(word)) continue;
        words.add(word);
        if (words.size === WORDS_PER_MESSAGE_MAX) return [...words];
      }
    }
  }
  return [...words];
}

/**
 * A query's terms: every word must be found; the last one (`prefix`) may also begin a longer word.
 * Words outside 2 to 32 characters are left out, as they are of the index, and so are stop words,
 * unless one is the only word: then it is a prefix ("de" finds "devis"). Null when no word is left.
 */
export interface QueryTerms {
  words: string[];
  prefix: string;
}

export function queryTerms(query: string): QueryTerms | null {
  const all = [...wordsWithOffsets(query)]
    .map(({ word }) => word)
    .filter((word) => word.length >= WORD_MIN && word.length <= WORD_MAX);
  const kept = all.filter((word) => !STOP_WORDS.has(word));
  const prefix = kept.length ? kept.pop()! : all.pop();
  if (prefix === undefined) return null;
  return { words: [...new Set(kept.filter((word) => word !== prefix))], prefix };
}

/** Characters of a snippet, and how many of them come before the first word found. */
const SNIPPET_CHARS = 160;
const SNIPPET_LEAD = 50;

/**
 * A short passage of `text` around the first word the query asks for (whole words, spaces collapsed),
 * with an ellipsis where it was cut; the text's start when no word of it matches (the match was in the
 * subject or the address).
 */
export function snippet(text: string, terms: QueryTerms): string {
  const head = text.slice(0, TEXT_READ_MAX);
  let found = 0;
  for (const { word, at } of wordsWithOffsets(head)) {
    if (word.startsWith(terms.prefix) || terms.words.includes(word)) {
      found = at;
      break;
    }
  }
  let start = Math.max(0, found - SNIPPET_LEAD);
  // Start and end on whole words: after the first space past the cut, before the last one.
  const lead = start > 0 ? head.slice(start, found).search(/\s/) : -1;
  if (lead >= 0) start += lead + 1;
  let end = Math.min(head.length, start + SNIPPET_CHARS);
  const tail = end < head.length ? head.slice(found, end).search(/\s\S*$/) : -1;
  if (tail > 0) end = found + tail;
  const passage = head.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${passage}${end < text.length ? '…' : ''}`;
}
