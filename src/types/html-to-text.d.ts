// html-to-text ships no types (mailparser uses the same package for its text version of HTML).
declare module 'html-to-text' {
  export function convert(html: string, options?: Record<string, unknown>): string;
}
