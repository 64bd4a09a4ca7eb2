/** The pieces every answer's text is composed of: counts, item lines, the next page, the notice's sentences. */

/** "3 fils", "1 fil", or the phrase for none ("aucun fil"). */
export const countOf = (count: number, one: string, many: string, none: string): string =>
  count === 0 ? none : `${count} ${count > 1 ? many : one}`;

/** A record's lines as an item of a list: its first line after "- ", the others indented under it. */
const item = (lines: readonly string[]): string[] => lines.map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`));

/** Every record of a list, item after item. */
export const items = <T>(records: readonly T[], render: (record: T) => readonly string[]): string[] =>
  records.flatMap((r) => item(render(r)));

/** The cursor of the next page, verbatim (a content-only host has nowhere else to read it), or that this page is the last. */
export const pageEnd = (nextCursor: string | null): string =>
  nextCursor === null ? 'Dernière page.' : `next_cursor : ${JSON.stringify(nextCursor)}`;

/** The next step of a page with a next one: the same tool, `parameter` = next_cursor, the same filters. */
export const nextPage = (tool: string, nextCursor: string | null, parameter = 'cursor'): string | null =>
  nextCursor === null
    ? null
    : `Page suivante : rappelez ${tool} avec ${parameter} = next_cursor et les mêmes paramètres.`;

/** A notice from its sentences (absent ones left out); null when none is left. */
export const sentences = (...parts: (string | null | false | undefined)[]): string | null => {
  const kept = parts.filter((part): part is string => typeof part === 'string' && part.length > 0);
  return kept.length ? kept.join(' ') : null;
};

/** The lines of a text (an empty string is a blank line), the absent parts left out. */
export const lines = (...parts: (string | readonly string[] | null | false | undefined)[]): string =>
  parts.flatMap((part) => (typeof part === 'string' ? [part] : part ? [...part] : [])).join('\n');
