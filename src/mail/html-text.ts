/**
 * The text of an HTML document (an HTML-only mail, an HTML attachment), read in a content worker
 * (src/mail/sandbox.ts). html-to-text parses with htmlparser2, whose cost grows with the nesting
 * depth at every tag (2 MB of nested `<div>` held a core 30 s, with html-to-text's own depth limit or
 * without): the depth is first measured with htmlparser2 itself, which stops at the first element past
 * `maxDepth` (a few ms for that document); a document nested deeper gets no text (`depth_limit`).
 */
import { compile } from 'html-to-text';
import { Parser } from 'htmlparser2';
import type { Outcome } from './sandbox.js';

/** html-to-text's own cap on its input (it reads no further, and warns on stderr): cut here instead. */
const INPUT_MAX_CHARS = 1 << 24;

/** Whether an element of `html` lies deeper than `maxDepth` (elements implied closed count as closed, as the parser closes them). */
function tooDeep(html: string, maxDepth: number): boolean {
  let depth = 0;
  let over = false;
  const parser = new Parser(
    {
      onopentagname() {
        if (++depth <= maxDepth) return;
        over = true;
        parser.pause();
      },
      onclosetag() {
        depth--;
      },
    },
    { decodeEntities: false },
  );
  parser.write(html);
  if (!over) parser.end();
  return over;
}

/** html-to-text compiles its options into a converter (some ms each time): once per setting. */
const converters = new Map<number | false, (html: string) => string>();
const converter = (wordwrap: number | false) => {
  let found = converters.get(wordwrap);
  if (!found) converters.set(wordwrap, (found = compile({ wordwrap })));
  return found;
};

/** `wordwrap`: the column lines are wrapped at (80 for a mail's text, as mailparser did), false for none. */
export function htmlText(html: string, options: { maxDepth: number; wordwrap: number | false }): Outcome<string> {
  const input = html.slice(0, INPUT_MAX_CHARS);
  if (tooDeep(input, options.maxDepth)) return { ok: false, reason: 'depth_limit' };
  return { ok: true, value: converter(options.wordwrap)(input) };
}
