/**
 * GET /v1/openapi.json: a valid OpenAPI 3.1 document (checked by an independent validator), each
 * operation tagged by area and listing every status it can refuse with, from the one declared list
 * of src/tools/refusals.ts; that list covers the spec's errors.json and what each tool's file raises.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import t from 'tap';
import { ERROR_CODES, statusOf, type ErrorCode } from '../../src/errors.js';
import { ROOT } from '../../src/paths.js';
import { TOOLS } from '../../src/tools/index.js';
import { COMMON_REFUSALS, REFUSALS, refusalsOf } from '../../src/tools/refusals.js';
import { startService } from '../helpers/service.js';

const svc = await startService();
const doc = await (await fetch(`${svc.url}/v1/openapi.json`)).json();
const source = (file: string) => readFileSync(join(ROOT, file), 'utf8');

t.test('the served document is valid OpenAPI 3.1', async (t) => {
  const validator = new Validator();
  const result = await validator.validate(doc);
  t.same(result, { valid: true }, JSON.stringify(result.errors ?? null));
  t.equal(validator.version, '3.1');
});

t.test('info carries the licence of package.json', async (t) => {
  t.same(doc.info.license, { name: 'MIT', identifier: 'MIT' });
  t.equal(JSON.parse(source('package.json')).license, 'MIT');
});

t.test('every operation has one declared tag', async (t) => {
  const declared = doc.tags.map((tag: { name: string }) => tag.name);
  for (const tool of TOOLS) {
    const { tags } = doc.paths[`/v1/${tool.name}`].post;
    t.equal(tags.length, 1, `${tool.name} has one tag`);
    t.ok(declared.includes(tags[0]), `${tool.name}: tag ${tags[0]} is declared`);
  }
  const used = new Set(TOOLS.map((tool) => doc.paths[`/v1/${tool.name}`].post.tags[0]));
  t.same(
    declared.filter((tag: string) => !used.has(tag)),
    [],
    'no declared tag without an operation',
  );
});

t.test('every operation answers each status of its refusals with the error schema, naming the codes', async (t) => {
  for (const tool of TOOLS) {
    const { responses } = doc.paths[`/v1/${tool.name}`].post;
    const codes = refusalsOf(tool);
    const expected = [...new Set(codes.map((code) => String(statusOf(code))))].sort();
    t.same(
      Object.keys(responses)
        .filter((status) => status !== '200')
        .sort(),
      expected,
      `${tool.name}: its statuses, no default`,
    );
    for (const status of ['400', '401', '403', '429', '500', '503'])
      t.ok(responses[status], `${tool.name} answers ${status}`);
    for (const status of expected) {
      const response = responses[status];
      t.same(
        response.content['application/json'].schema,
        { $ref: '#/components/schemas/Error' },
        `${tool.name} ${status}: error schema`,
      );
      const named = codes.filter((code) => String(statusOf(code)) === status);
      t.same(
        response.description.match(/[a-z_]+(?=,|$)/g),
        named,
        `${tool.name} ${status}: « ${response.description} » names ${named.join(', ')}`,
      );
    }
  }
  t.match(doc.paths['/v1/send_email'].post.responses['429'].description, /rate_limited.*key_daily_cap.*queue_full/);
});

t.test('the declared refusals: one entry per registered tool, common codes apart', async (t) => {
  t.same(Object.keys(REFUSALS).sort(), TOOLS.map((tool) => tool.name).sort());
  for (const [name, codes] of Object.entries(REFUSALS)) {
    t.same(
      codes.filter((code) => COMMON_REFUSALS.includes(code) || code === 'space_unverified'),
      [],
      `${name}: no common code repeated`,
    );
    t.equal(new Set(codes).size, codes.length, `${name}: no code twice`);
  }
});

/** A code some file of the service raises (a literal besides the table): the others are reserved for planned tools. */
const raisedSomewhere = (() => {
  const files = ['src', 'actors', 'lua'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|lua)$/.test(file))
      .map((file) => join(dir, file)),
  );
  const text = files
    .filter((file) => file !== join('src', 'errors.ts'))
    .map(source)
    .join('\n');
  return (code: ErrorCode) => new RegExp(`['"]${code}['"]`).test(text);
})();

t.test("the declared refusals cover the spec's errors.json tool lists (codes of planned tools apart)", async (t) => {
  const { codes } = JSON.parse(source('docs/spec/errors.json')) as { codes: Record<string, { tools: string[] }> };
  for (const tool of TOOLS) {
    const declared = refusalsOf(tool);
    const spec = Object.entries(codes)
      .filter(
        ([code, { tools }]) =>
          ERROR_CODES.includes(code as ErrorCode) && (tools.includes(tool.name) || tools.includes('*')),
      )
      .map(([code]) => code as ErrorCode)
      .filter(raisedSomewhere);
    t.same(
      spec.filter((code) => !declared.includes(code)),
      [],
      `${tool.name} declares what errors.json says it raises`,
    );
  }
});

t.test("the declared refusals cover every code the tool's own file raises", async (t) => {
  for (const tool of TOOLS) {
    const raised = [...source(`src/tools/${tool.name}.ts`).matchAll(/MailboxError\('([a-z_]+)'/g)].map(
      (match) => match[1] as ErrorCode,
    );
    t.same(
      raised.filter((code) => !refusalsOf(tool).includes(code)),
      [],
      `${tool.name} declares what src/tools/${tool.name}.ts raises`,
    );
  }
});
