// html-to-text ships no types (mailparser uses the same package for its text version of HTML).
declare module 'html-to-text' {
  /** The options compiled once into a converter (convert compiles them at every call). */
  export function compile(options?: Record<string, unknown>): (html: string) => string;
}
