/**
 * `npm run client:generate` (with the TypeScript client's): writes the generated modules of the Python
 * client, clients/python/mailbox_client/types.py (a TypedDict per object of the tools' bodies and
 * answers) and client.py (the `Mailbox` class, one keyword-argument method per tool), from the OpenAPI
 * document the service serves, built in process. It follows the document only: a tool, a parameter or
 * a field added there is in the client after a regeneration. A test regenerates them and compares them
 * with the committed files (test/foundation/python-client.test.ts).
 *
 * JSON Schema to Python 3.9 typing: strings, integers, numbers, booleans; `const` and `enum` as
 * `Literal`; `anyOf` as `Union` (`Optional` with null); arrays as `List`; an object with properties as
 * a TypedDict named after where it first appears (the same shape seen again is the same class), one
 * without as `Dict[str, ...]`; anything else `Any`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../../src/http/openapi.js';
import { ROOT } from '../../src/paths.js';

const PACKAGE = join(ROOT, 'clients/python/mailbox_client');
export const PYTHON_FILES = { types: join(PACKAGE, 'types.py'), client: join(PACKAGE, 'client.py') } as const;

const HEADER = '# Generated from GET /v1/openapi.json by `npm run client:generate` (clients/python/generate.ts): do not edit.\n';
const WIDTH = 100;

type Schema = Record<string, any>;

const PYTHON_KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else',
  'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise',
  'return', 'try', 'while', 'with', 'yield',
]);
const isIdentifier = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !PYTHON_KEYWORDS.has(name);
/** A parameter's name in Python: `from` is `from_`. */
const argumentName = (name: string): string => (isIdentifier(name) ? name : `${name.replace(/\W/g, '_')}_`);

const pascal = (name: string): string =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** The name of one element of a list named `name`: `items` -> `Item`, `addresses` -> `Address`. */
function singular(name: string): string {
  if (/ies$/.test(name)) return name.replace(/ies$/, 'y');
  if (/sses$/.test(name)) return name.replace(/es$/, '');
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return `${name}Item`;
}

/** JSON with sorted keys: two schemas of one shape give one text. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));

/** A JSON value as a Python literal (JSON strings and numbers are Python literals). */
const pythonLiteral = (value: unknown): string => (value === null ? 'None' : value === true ? 'True' : value === false ? 'False' : JSON.stringify(value));

/** `open a, b close` when it fits on a line at `indent`, else one item a line, indented one level more. */
const inlineOrLines = (items: string[], open: string, close: string, indent: string): string =>
  indent.length + items.join(', ').length + 4 <= WIDTH ? `${open}${items.join(', ')}${close}` : [open, ...items.map((item) => `${indent}    ${item},`), `${indent}${close}`].join('\n');

/** `text` cut into lines of at most WIDTH characters, each opening with `prefix`. */
function wrap(text: string, prefix: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    if (line && prefix.length + line.length + 1 + word.length > WIDTH) {
      lines.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(prefix + line);
  return lines;
}

const docstring = (text: string, indent: string): string[] => {
  const escaped = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"');
  const lines = escaped.split(/\n\s*\n/).flatMap((paragraph, i) => [...(i ? [''] : []), ...wrap(paragraph, indent)]);
  return lines.length === 1 && lines[0]!.length + 6 <= WIDTH ? [`${indent}"""${lines[0]!.trim()}"""`] : [`${indent}"""`, ...lines, `${indent}"""`];
};

interface Field {
  key: string;
  type: string;
  required: boolean;
  description?: string;
}

/** The TypedDicts of types.py, in the order they are needed (a class before the ones that use it). */
class TypeWriter {
  readonly blocks: string[] = [];
  readonly classNames = new Set<string>();
  readonly usesLiteral = { value: false };
  private readonly byShape = new Map<string, string>();

  private unique(name: string): string {
    let candidate = name;
    for (let i = 2; this.classNames.has(candidate); i++) candidate = `${name}${i}`;
    this.classNames.add(candidate);
    return candidate;
  }

  /** The Python type of `schema`; `hint` names the classes it needs. */
  typeOf(schema: Schema | boolean | undefined, hint: string): string {
    if (schema === undefined || schema === true || schema === false) return 'Any';
    if ('const' in schema) return this.literal([schema.const]);
    if (Array.isArray(schema.enum)) return this.literal(schema.enum);
    const members = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (members) return this.union(members, hint);
    if (Array.isArray(schema.type)) return this.union(schema.type.map((type: string) => ({ ...schema, type })), hint);
    switch (schema.type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `List[${this.typeOf(schema.items, singular(hint))}]`;
      case 'object':
        return this.objectType(schema, hint);
      default:
        return 'Any';
    }
  }

  private literal(values: unknown[]): string {
    const shown = values.filter((value) => value !== null).map(pythonLiteral);
    const nullable = values.includes(null);
    if (!shown.length) return 'None';
    this.usesLiteral.value = true;
    const literal = `Literal[${shown.join(', ')}]`;
    return nullable ? `Optional[${literal}]` : literal;
  }

  private union(members: Schema[], hint: string): string {
    const objects = members.filter((member) => member.type === 'object' && member.properties && Object.keys(member.properties).length);
    let literals: unknown[] = [];
    const parts: string[] = [];
    let nullable = false;
    for (const member of members) {
      if (member.type === 'null' || member.const === null) nullable = true;
      else if ('const' in member) literals.push(member.const);
      else if (Array.isArray(member.enum)) literals = [...literals, ...member.enum];
      else {
        const at = objects.indexOf(member);
        const type = this.typeOf(member, objects.length > 1 && at >= 0 ? `${hint}${at + 1}` : hint);
        if (type.startsWith('Optional[')) {
          nullable = true;
          parts.push(type.slice('Optional['.length, -1));
        } else if (type === 'None') nullable = true;
        else parts.push(type);
      }
    }
    if (literals.length) parts.unshift(this.literal([...new Set(literals)]).replace(/^Optional\[(.*)\]$/, '$1'));
    if (literals.includes(null)) nullable = true;
    const distinct = [...new Set(parts)];
    if (distinct.includes('Any')) return 'Any';
    const type = distinct.length === 0 ? 'None' : distinct.length === 1 ? distinct[0]! : `Union[${distinct.join(', ')}]`;
    return nullable && type !== 'None' ? `Optional[${type}]` : type;
  }

  private objectType(schema: Schema, hint: string): string {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    if (!Object.keys(properties).length) {
      const patterns = Object.values((schema.patternProperties ?? {}) as Record<string, Schema>);
      if (patterns.length) return `Dict[str, ${this.union(patterns, `${hint}Value`)}]`;
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') return `Dict[str, ${this.typeOf(schema.additionalProperties, `${hint}Value`)}]`;
      return 'Dict[str, Any]';
    }
    return this.typedDict(schema, hint);
  }

  /** The class of an object schema: the one made for the same shape before, or a new one named `name`. */
  typedDict(schema: Schema, name: string): string {
    const shape = canonical(schema);
    const known = this.byShape.get(shape);
    if (known) return known;
    const className = this.unique(name);
    this.byShape.set(shape, className);
    const required = new Set<string>(schema.required ?? []);
    const fields: Field[] = Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([key, property]) => ({
      key,
      type: this.typeOf(property, `${className}${pascal(key)}`),
      required: required.has(key),
      description: property.description,
    }));
    this.blocks.push(typedDictText(className, schema.description, fields));
    return className;
  }

  /** `name` for a top-level body or answer: its class, or an alias of the class of the same shape. */
  named(schema: Schema, name: string): string {
    const made = this.typedDict(schema, name);
    if (made !== name && !this.classNames.has(name)) {
      this.classNames.add(name);
      this.blocks.push(`${name} = ${made}`);
    }
    return this.classNames.has(name) ? name : made;
  }
}

function typedDictText(name: string, description: string | undefined, fields: Field[]): string {
  const required = fields.filter((field) => field.required);
  const optional = fields.filter((field) => !field.required);
  const doc = description ? docstring(description, '    ') : [];
  const body = (part: Field[]) =>
    part.flatMap((field) => [...(field.description ? wrap(field.description, '    #: ') : []), `    ${field.key}: ${field.type}`]);
  if (fields.every((field) => isIdentifier(field.key))) {
    if (!optional.length || !required.length) {
      const total = required.length || !fields.length ? '' : ', total=False';
      const lines = [...doc, ...body(fields)];
      return [`class ${name}(TypedDict${total}):`, ...(lines.length ? lines : ['    pass'])].join('\n');
    }
    return [`class _${name}Required(TypedDict):`, ...body(required), '', '', `class ${name}(_${name}Required, total=False):`, ...doc, ...body(optional)].join('\n');
  }
  // A key that is no Python name (`from`): the functional form, which takes any key.
  const functional = (className: string, part: Field[], total: boolean) =>
    [`${className} = TypedDict(`, `    "${className}",`, '    {', ...part.flatMap((field) => [...(field.description ? wrap(field.description, '        #: ') : []), `        ${JSON.stringify(field.key)}: ${field.type},`]), '    },', ...(total ? [] : ['    total=False,']), ')'].join('\n');
  if (!optional.length) return functional(name, required, true);
  if (!required.length) return functional(name, optional, false);
  return [
    functional(`_${name}Required`, required, true),
    '',
    functional(`_${name}Optional`, optional, false),
    '',
    '',
    `class ${name}(_${name}Required, _${name}Optional):`,
    ...(doc.length ? doc : ['    pass']),
  ].join('\n');
}

interface Operation {
  operationId: string;
  description: string;
  'x-effect': string;
  parameters?: { name: string }[];
  requestBody: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { description: string; content: { 'application/json': { schema: Schema } } }>;
}

/** A tool's method: keyword-only arguments (required first), its answer's class, its French description and refusals. */
function methodText(types: TypeWriter, operation: Operation, input: Schema, outputClass: string): string {
  const name = operation.operationId;
  const required = new Set<string>(input.required ?? []);
  const entries = Object.entries((input.properties ?? {}) as Record<string, Schema>).sort(([a], [b]) => Number(required.has(b)) - Number(required.has(a)));
  const inputClass = `${pascal(name)}Input`;
  // The same hints as the input's class: each object parameter is the class made for it there.
  const typeOf = new Map(entries.map(([key, schema]) => [key, types.typeOf(schema, `${inputClass}${pascal(key)}`)]));
  const nullable = ([key]: [string, Schema]) => /^Optional\[/.test(typeOf.get(key)!);
  const argument = (entry: [string, Schema]) => {
    const [key] = entry;
    const type = typeOf.get(key)!;
    if (required.has(key)) return `${argumentName(key)}: ${type}`;
    // None means "not given"; a parameter that takes null says "not given" with NOT_GIVEN instead.
    return nullable(entry) ? `${argumentName(key)}: Union[${type}, NotGiven] = NOT_GIVEN` : `${argumentName(key)}: Optional[${type}] = None`;
  };
  const dict = (part: [string, Schema][]) => inlineOrLines(part.map(([key]) => `${JSON.stringify(key)}: ${argumentName(key)}`), '{', '}', '            ');
  const given = entries.filter(([key]) => required.has(key));
  const optional = entries.filter((entry) => !required.has(entry[0]) && !nullable(entry));
  const optionalNullable = entries.filter((entry) => !required.has(entry[0]) && nullable(entry));
  const refusals = Object.entries(operation.responses)
    .filter(([status]) => status !== '200')
    .map(([status, response]) => `${status} ${response.description.replace(/^Refus : /, '')}`);
  const doc = docstring([operation.description, ...(refusals.length ? [`Refus : ${refusals.join(' ; ')}.`] : [])].join('\n\n'), '        ');
  const signature = entries.length ? [`    def ${name}(`, '        self,', '        *,', ...entries.map((entry) => `        ${argument(entry)},`), `    ) -> ${outputClass}:`] : [`    def ${name}(self) -> ${outputClass}:`];
  const call = `        return cast(${outputClass}, self._call(${JSON.stringify(name)}, ${entries.length ? 'params' : '{}'}))`;
  if (!entries.length) return [...signature, ...doc, call].join('\n');
  const params = ['        params = body(', ...[given, optional, optionalNullable].map((part) => `            ${dict(part)},`), '        )'];
  return [...signature, ...doc, ...params, call].join('\n');
}

interface Document {
  info: { version: string };
  paths: Record<string, { post: Operation }>;
  components: { schemas: { Error: Schema } };
}

/** The text of types.py and client.py for an OpenAPI document of the service: by default the current registry's. */
export function pythonClient(document = openApiDocument('http://localhost') as unknown as Document): { types: string; client: string } {
  const types = new TypeWriter();
  const errorCodes = document.components.schemas.Error.properties.error.properties.code.enum as string[];
  const methods: string[] = [];
  const tools: string[] = [];
  for (const { post: operation } of Object.values(document.paths)) {
    const name = operation.operationId;
    const input = operation.requestBody.content['application/json'].schema;
    types.named(input, `${pascal(name)}Input`);
    const outputClass = types.named(operation.responses['200']!.content['application/json'].schema, `${pascal(name)}Output`);
    methods.push(methodText(types, operation, input, outputClass));
    const idempotent = (operation.parameters ?? []).some((parameter) => parameter.name === 'Idempotency-Key');
    tools.push(`    ${JSON.stringify(name)}: ToolInfo(read_only=${pythonLiteral(operation['x-effect'] === 'read-only')}, idempotency_key=${pythonLiteral(idempotent)}),`);
  }
  const typesText = [
    HEADER,
    '"""The tools\' bodies and answers as TypedDicts: `<Tool>Input`, `<Tool>Output` and the objects inside them."""',
    '',
    `from typing import Any, Dict, List, ${types.usesLiteral.value ? 'Literal, ' : ''}Optional, TypedDict, Union`,
    '',
    '#: Every error code of the service (docs/errors.md).',
    `ErrorCode = ${inlineOrLines(errorCodes.map((code) => JSON.stringify(code)), 'Literal[', ']', '')}`,
    '',
    ...types.blocks.flatMap((block) => ['', block, '']),
  ].join('\n');

  const used = [...types.classNames].filter((name) => methods.some((method) => new RegExp(`\\b${name}\\b`).test(method))).sort();
  const clientText = [
    HEADER,
    '"""The Mailbox client: one method per tool of the service, each a `POST /v1/<tool>`."""',
    '',
    `from typing import Any, Dict, List, ${methods.some((m) => m.includes('Literal[')) ? 'Literal, ' : ''}Optional, Union, cast`,
    '',
    'from ._transport import NOT_GIVEN, NotGiven, ToolInfo, Transport, body',
    `from .types import (`,
    ...used.map((name) => `    ${name},`),
    ')',
    '',
    `__version__ = ${JSON.stringify(document.info.version)}`,
    '',
    '#: What the transport needs to know of each tool to retry it safely.',
    'TOOLS: Dict[str, ToolInfo] = {',
    ...tools,
    '}',
    '',
    '',
    'class Mailbox(Transport):',
    ...docstring(
      'A client of the Mailbox service at `base_url` (default: MAILBOX_URL, else http://127.0.0.1:8080) with the API key `key` (default: MAILBOX_KEY). A refusal raises MailboxError (`code`, `message`, `hint`, `status`).',
      '    ',
    ),
    '',
    '    _tools = TOOLS',
    ...methods.flatMap((method) => ['', method]),
    '',
  ].join('\n');
  return { types: typesText.replace(/\n{3,}/g, '\n\n\n').trimEnd() + '\n', client: clientText.replace(/\n{3,}/g, '\n\n\n') };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = pythonClient();
  writeFileSync(PYTHON_FILES.types, files.types);
  writeFileSync(PYTHON_FILES.client, files.client);
  console.log(`wrote ${PYTHON_FILES.types} and ${PYTHON_FILES.client}`);
}
