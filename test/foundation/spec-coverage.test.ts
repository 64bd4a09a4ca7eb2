/** The contract's data files (docs/spec/*.json) against the code: error table, registry, parameters. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ERROR_CODES, statusOf } from '../../src/errors.js';
import { ROOT } from '../../src/paths.js';
import { toolByName } from '../../src/tools/index.js';

const specDir = join(ROOT, 'docs', 'spec');
const load = (name: string) => JSON.parse(readFileSync(join(specDir, name), 'utf8'));

t.test('every error code of the spec is in the one table, with its status', async (t) => {
  const { codes } = load('errors.json') as { codes: Record<string, { http: number | number[] }> };
  for (const [code, spec] of Object.entries(codes)) {
    t.ok(ERROR_CODES.includes(code as never), `${code} is in src/errors.ts`);
    if (!ERROR_CODES.includes(code as never)) continue;
    if (Array.isArray(spec.http)) {
      t.same([statusOf(code as never, {}), statusOf(code as never, { memory: true })], spec.http, `${code} statuses`);
    } else {
      t.equal(statusOf(code as never), spec.http, `${code} status`);
    }
  }
});

const PERMISSION_WORDS: Record<string, string[] | 'any'> = {
  'any key': 'any',
  send: ['send'],
  read: ['read'],
  approve: ['approve'],
  manage_inboxes: ['manage_inboxes'],
  'send or approve': ['send', 'approve'],
  'read or approve': ['read', 'approve'],
};

t.test('registered tools carry the permission and verified flag of the spec', async (t) => {
  const { tools } = load('tools.json') as {
    tools: Record<string, { permission?: string; verified_required?: boolean; specified: boolean }>;
  };
  for (const [name, spec] of Object.entries(tools)) {
    const tool = toolByName.get(name);
    if (!tool) {
      t.fail(`${name} is not registered yet`, { todo: true });
      continue;
    }
    if (!spec.specified) continue;
    t.same(tool.permission, PERMISSION_WORDS[spec.permission!], `${name} permission`);
    t.equal(tool.verifiedRequired, spec.verified_required, `${name} verified flag`);
    t.equal(tool.effect, (spec as { effect?: string }).effect, `${name} effect`);
  }
});

t.test('registered tools take exactly the parameters of the spec', async (t) => {
  const { tools } = load('params.json') as { tools: Record<string, Record<string, { required: boolean }>> };
  for (const [name, params] of Object.entries(tools)) {
    const tool = toolByName.get(name);
    if (!tool) continue;
    const required = new Set(tool.input.required ?? []);
    for (const [param, spec] of Object.entries(params)) {
      t.ok(param in tool.input.properties, `${name}.${param} exists`);
      t.equal(required.has(param), spec.required, `${name}.${param} required flag`);
    }
  }
});
