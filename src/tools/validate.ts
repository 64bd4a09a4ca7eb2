import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { MailboxError } from '../errors.js';

/** A French reason for the first thing wrong with a parameter. */
function reasonOf(error: ValueError): string {
  const s = error.schema as TSchema & Record<string, unknown>;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'paramètre obligatoire absent.';
    case ValueErrorType.ObjectAdditionalProperties:
      return 'paramètre inconnu de cet outil.';
    case ValueErrorType.String:
      return 'doit être un texte.';
    case ValueErrorType.Integer:
      return 'doit être un nombre entier.';
    case ValueErrorType.Number:
      return 'doit être un nombre.';
    case ValueErrorType.Boolean:
      return 'doit valoir true ou false.';
    case ValueErrorType.Array:
      return 'doit être une liste.';
    case ValueErrorType.Object:
      return 'doit être un objet.';
    case ValueErrorType.StringMaxLength:
      return `au plus ${s.maxLength} caractères.`;
    case ValueErrorType.StringMinLength:
      return `au moins ${s.minLength} caractère${Number(s.minLength) > 1 ? 's' : ''}.`;
    case ValueErrorType.StringPattern:
      return `format attendu : ${s.description ?? String(s.pattern)}.`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `au moins ${s.minimum}.`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `au plus ${s.maximum}.`;
    case ValueErrorType.ArrayMinItems:
      return `au moins ${s.minItems} élément${Number(s.minItems) > 1 ? 's' : ''}.`;
    case ValueErrorType.ArrayMaxItems:
      return `au plus ${s.maxItems} éléments.`;
    case ValueErrorType.ArrayUniqueItems:
      return 'la liste contient un doublon.';
    case ValueErrorType.ObjectMaxProperties:
      return `au plus ${s.maxProperties} champs.`;
    case ValueErrorType.Literal:
      return `doit valoir ${JSON.stringify(s.const)}.`;
    case ValueErrorType.Union: {
      const allowed = ((s.anyOf as TSchema[] | undefined) ?? [])
        .map((o) => (o as Record<string, unknown>).const)
        .filter((v) => v !== undefined);
      return allowed.length ? `valeurs permises : ${allowed.join(', ')}.` : 'valeur refusée.';
    }
    default:
      return 'valeur refusée.';
  }
}

/** Compiled once per tool: validates a parsed body and answers `invalid_argument` naming the parameter. */
export class InputValidator<T extends TObject> {
  private readonly check: TypeCheck<T>;
  private readonly optional: Set<string>;

  constructor(schema: T) {
    this.check = TypeCompiler.Compile(schema);
    const required = new Set(schema.required ?? []);
    this.optional = new Set(Object.keys(schema.properties).filter((name) => !required.has(name)));
  }

  /**
   * Returns the input as the handler sees it. A `null` given for an optional parameter means absent
   * (assistants often send nulls for what they leave out).
   */
  parse(body: unknown): Static<T> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new MailboxError('invalid_argument', null, { reason: 'le corps doit être un objet JSON.' });
    }
    // No prototype: `input.__proto__ = value` would set one and hide the parameter from the check and the hash.
    const input: Record<string, unknown> = Object.create(null);
    for (const [name, value] of Object.entries(body)) {
      if (value === null && this.optional.has(name)) continue;
      input[name] = value;
    }
    if (this.check.Check(input)) return input;
    const first = this.check.Errors(input).First()!;
    const parameter = first.path.split('/')[1] ?? '';
    throw new MailboxError('invalid_argument', parameter ? { parameter } : null, { reason: reasonOf(first) });
  }
}

/** Outputs are checked too: a handler that drifts from its schema is a bug, answered `internal`. */
export const compileOutput = (schema: TObject) => TypeCompiler.Compile(schema);
