/** Types of test/helpers/hostile.mjs (plain JavaScript, shared with the content drill). */
export function nestedHtml(depth: number, word?: string): string;
export function nestedHtmlOf(bytes: number): string;
export function inflatingPdf(inflatedBytes: number): Buffer;
