/**
 * A declared media type (a received file's Content-Type, its sender's choice), parsed as browsers parse
 * it: Node's MIMEType (the WHATWG MIME Sniffing parser). What does not parse as one type (a list such as
 * `text/plain, text/html`, a bare word) is no type at all; case, parameters and spaces are the parser's.
 */
import { MIMEType } from 'node:util';

/** The parsed type, or null for a declaration that is not one valid media type. */
export function mediaType(declared: string): MIMEType | null {
  try {
    return new MIMEType(declared.trim());
  } catch {
    return null;
  }
}

/** type/subtype in lowercase, without parameters; null when it does not parse. */
export const essenceOf = (declared: string): string | null => mediaType(declared)?.essence ?? null;

/** Subtypes a browser renders as a page or runs as a script, compared without an `x-` prefix. */
const ACTIVE_SUBTYPES = new Set([
  'html',
  'xhtml',
  'xml',
  'xsl',
  'xslt',
  'javascript',
  'ecmascript',
  'jscript',
  'vbscript',
  'livescript',
]);

/**
 * Whether a browser could render or run a file of this type: HTML, XML of any kind (`+xml`: SVG, XHTML,
 * RSS...), XSL, scripts, each with or without `x-`, under any top-level type.
 */
export function isActive(type: MIMEType): boolean {
  const subtype = type.subtype.replace(/^x-/, '');
  return subtype.endsWith('+xml') || ACTIVE_SUBTYPES.has(subtype);
}
