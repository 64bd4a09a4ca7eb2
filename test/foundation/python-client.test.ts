/**
 * The Python client of clients/python: its generated modules are what `npm run client:generate` writes
 * today (so it never drifts from the service), and its unittest suite (clients/python/tests) passes
 * against this file's service: sending, reading a thread, refusals, retries, the README's examples.
 * Without python3 (3.9 or later) on the PATH that suite is skipped, saying so.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { PYTHON_FILES, pythonClient } from '../../clients/python/generate.js';
import { openApiDocument } from '../../src/http/openapi.js';
import { ROOT } from '../../src/paths.js';
import { startService } from '../helpers/service.js';

const python = spawnSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
const version = python.status === 0 ? python.stdout.trim() : null;
const usable = version !== null && Number(version.split('.')[0]) === 3 && Number(version.split('.')[1]) >= 9;

t.test(
  'clients/python/mailbox_client: types.py and client.py are what client:generate writes from the current registry',
  async (t) => {
    const generated = pythonClient();
    for (const file of ['types', 'client'] as const) {
      t.ok(
        readFileSync(PYTHON_FILES[file], 'utf8') === generated[file],
        `${file}.py up to date: run \`npm run client:generate\``,
      );
    }
  },
);

/** A document with shapes the registry may grow: a recipient as text or list, a nullable parameter, a keyword as a name. */
function documentToCome() {
  const document = openApiDocument('http://localhost') as any;
  const sendEmail = document.paths['/v1/send_email'].post;
  const input = structuredClone(sendEmail.requestBody.content['application/json'].schema);
  input.properties.to = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 10 }] };
  input.properties.cc = {
    type: 'array',
    items: { type: 'object', properties: { email: { type: 'string' }, name: { type: 'string' } }, required: ['email'] },
  };
  input.properties.send_after = { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'null : au plus tôt' };
  input.properties.from = { type: 'string' };
  const output = {
    type: 'object',
    properties: { notice: { type: 'string' }, status: { const: 'queued' } },
    required: ['notice'],
  };
  document.paths = {
    '/v1/send_email': {
      post: {
        ...sendEmail,
        requestBody: { content: { 'application/json': { schema: input } } },
        responses: { 200: { description: 'OK', content: { 'application/json': { schema: output } } } },
      },
    },
  };
  return document;
}

t.test('the generator follows what the document may grow into', async (t) => {
  const { types, client } = pythonClient(documentToCome());
  t.match(client, '        to: Union[str, List[str]],', 'text or list');
  t.match(client, '        cc: Optional[List[SendEmailInputCcItem]] = None,', 'a list of objects');
  t.match(
    client,
    '        send_after: Union[Optional[str], NotGiven] = NOT_GIVEN,',
    'null is a value: NOT_GIVEN leaves it out',
  );
  t.match(client, '        from_: Optional[str] = None,', 'a keyword is renamed as an argument');
  t.match(
    client,
    /params = body\(\n.*"to": to.*\n[\s\S]*"from": from_,[\s\S]*\{"send_after": send_after\},\n/,
    'and keeps its name in the body',
  );
  t.match(
    types,
    /class _SendEmailInputCcItemRequired\(TypedDict\):\n {4}email: str\n\n\nclass SendEmailInputCcItem\(_SendEmailInputCcItemRequired, total=False\):\n {4}name: str/,
  );
  t.match(types, /"from": str,/, 'a TypedDict with a keyword key: the functional form');
  if (usable) {
    for (const text of [types, client]) {
      const parsed = spawnSync(
        'python3',
        ['-c', 'import ast, sys; ast.parse(sys.stdin.read(), feature_version=(3, 9))'],
        { input: text, encoding: 'utf8' },
      );
      t.equal(parsed.status, 0, `Python 3.9 syntax: ${parsed.stderr}`);
    }
  }
  t.match(
    types,
    /class _SendEmailOutputRequired\(TypedDict\):\n {4}notice: str\n\n\nclass SendEmailOutput\(_SendEmailOutputRequired, total=False\):\n {4}status: Literal\["queued"\]/,
  );
});

t.test(
  'the unittest suite of clients/python against a live service',
  {
    skip: usable
      ? false
      : `python3 ${version ? `is ${version}, the client needs 3.9 or later` : 'is not on the PATH'}: the Python client's tests did not run`,
  },
  async (t) => {
    // A small rate budget, so that a test reaches it; every key has its own.
    const svc = await startService({
      env: {
        MAILBOX_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
        RATE_LIMIT_BURST: '40',
        RATE_LIMIT_PER_SECOND: '5',
      },
    });
    const { apiKey } = await svc.space({ plan: 'pro' });
    // urllib honours http_proxy: a machine's proxy must not stand between the tests and the loopback service.
    const loopback = '127.0.0.1,localhost';
    const env = {
      ...process.env,
      MAILBOX_URL: svc.url,
      MAILBOX_KEY: apiKey,
      PYTHONPATH: join(ROOT, 'clients/python'),
      PYTHONDONTWRITEBYTECODE: '1',
      no_proxy: loopback,
      NO_PROXY: loopback,
    };
    const started = Date.now();
    const run = await promisify(execFile)(
      'python3',
      ['-m', 'unittest', 'discover', '-v', '-s', join(ROOT, 'clients/python/tests')],
      { env, cwd: ROOT },
    ).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    t.equal(run.code, 0, run.stderr);
    const ran = /^Ran (\d+) tests? in ([\d.]+)s$/m.exec(run.stderr);
    t.ok(
      ran && Number(ran[1]) >= 10,
      `python3 ${version}: ${ran?.[1]} tests in ${ran?.[2]} s (${Date.now() - started} ms with the interpreter)`,
    );
    t.match(run.stderr, /^OK$/m);
  },
);
