import { MailboxError } from './errors.js';

/**
 * Opaque page cursors. A cursor names the query it belongs to (space, tool, filters): a forged
 * cursor, or one from another space or another query, is `invalid_argument`.
 */
export function encodeCursor(scope: string, position: string): string {
  return Buffer.from(JSON.stringify([scope, position])).toString('base64url');
}

export function decodeCursor(cursor: string, scope: string, parameter = 'cursor'): string {
  try {
    const [cursorScope, position] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (cursorScope === scope && typeof position === 'string') return position;
  } catch {
    // fall through: not ours
  }
  throw new MailboxError(
    'invalid_argument',
    { parameter },
    {
      reason: "ce curseur ne vient pas d'un appel précédent de cette même lecture.",
    },
  );
}
