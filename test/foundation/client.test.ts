/**
 * The typed client of clients/typescript: its schema is what `npm run client:generate` writes today
 * (so it never drifts), a file calling every registered tool through it compiles, and it calls the
 * service for real: typed answers, typed refusals, every tool once.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import ts from 'typescript';
import { clientSchema, SCHEMA_FILE } from '../../clients/typescript/generate.js';
import { createMailboxClient, type MailboxClient, type MailboxRefusal } from '../../clients/typescript/index.js';
import { ROOT } from '../../src/paths.js';
import { TOOLS } from '../../src/tools/index.js';
import { CHILD_EXEC_ARGV } from '../helpers/child.js';
import { EXAMPLES } from '../helpers/examples.js';
import { startService } from '../helpers/service.js';

const svc = await startService({ env: { MAILBOX_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') } });

t.test('clients/typescript/schema.d.ts is what client:generate writes from the current registry', async (t) => {
  t.ok(
    readFileSync(SCHEMA_FILE, 'utf8') === (await clientSchema()),
    'committed schema up to date: run `npm run client:generate`',
  );
});

/** A file that calls every registered tool through the client, typed; and one unknown tool that must not compile. */
function everyToolCall(): string {
  const index = join(ROOT, 'clients/typescript/index.js');
  const calls = TOOLS.map(({ name }) =>
    [
      `  {`,
      `    const { data, error } = await client.POST('/v1/${name}', { body: input<ToolInput<'${name}'>>() });`,
      `    const output: ToolOutput<'${name}'> | undefined = data;`,
      `    const code: string | undefined = error?.error.code;`,
      `    void output, code;`,
      `  }`,
    ].join('\n'),
  );
  return [
    `import { createMailboxClient, type ToolInput, type ToolOutput } from ${JSON.stringify(index)};`,
    `declare function input<T>(): T;`,
    `const client = createMailboxClient('http://127.0.0.1:8080', 'mbx_exemple');`,
    `export async function callEveryTool(): Promise<void> {`,
    ...calls,
    `  // @ts-expect-error a tool the service does not have`,
    `  await client.POST('/v1/no_such_tool', { body: {} });`,
    `}`,
    '',
  ].join('\n');
}

t.test(
  "a file calling every registered tool through the typed client compiles, and so does the README's example",
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'mailbox-client-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'every-tool.ts'), everyToolCall());
    // The example reads its key from Node's `process`: declared here, Node's types being left out.
    writeFileSync(
      join(dir, 'example.mts'),
      `declare const process: { env: Record<string, string | undefined> };\n${readmeExample()}`,
    );
    // What a user's project would have: strict, ES modules, fetch's types from the DOM library, no Node types.
    const compilerOptions = {
      noEmit: true,
      strict: true,
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2022', 'dom'],
      types: [],
    };
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, files: ['every-tool.ts', 'example.mts'] }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', dir]).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    t.equal(result, '', 'tsc --noEmit finds no error');
  },
);

t.test('typed calls for real: answers and refusals', async (t) => {
  const { apiKey } = await svc.space({ plan: 'pro' });
  const client = createMailboxClient(svc.url, apiKey);

  const settings = await client.POST('/v1/get_settings', { body: {} });
  t.equal(settings.response.status, 200);
  t.same(settings.data?.key.permissions, ['send', 'read', 'approve', 'manage_inboxes']);

  const created = await client.POST('/v1/create_inbox', {
    body: { username: 'client-type', display_name: 'Client typé' },
  });
  t.match(created.data?.address, /^client-type@/);
  const inboxId = created.data!.id;

  const listed = await client.POST('/v1/list_inboxes', { body: {} });
  t.same(
    listed.data?.items.map((inbox) => inbox.id),
    [inboxId],
  );

  const body = {
    inbox_id: inboxId,
    to: created.data!.address,
    subject: 'Essai',
    text: 'Bonjour. {{unsubscribe_url}}',
    test: true,
  };
  const sent = await client.POST('/v1/send_email', {
    body,
    params: { header: { 'Idempotency-Key': 'client-essai-1' } },
  });
  t.equal(sent.response.status, 200);
  const again = await client.POST('/v1/send_email', {
    body,
    params: { header: { 'Idempotency-Key': 'client-essai-1' } },
  });
  t.equal(again.data?.message?.id, sent.data?.message?.id, 'the header is the idempotency key');

  const thread = await client.POST('/v1/get_thread', { body: { thread_id: sent.data!.thread!.id } });
  t.equal(thread.data?.thread.id, sent.data?.thread?.id);

  const refused = await client.POST('/v1/create_inbox', { body: { username: 'Majuscules', display_name: 'x' } });
  t.equal(refused.response.status, 400);
  const refusal: MailboxRefusal | undefined = refused.error;
  t.equal(refusal?.error.code, 'invalid_argument');
  t.same(refusal?.error.hint, { parameter: 'username' });

  const stranger = await createMailboxClient(svc.url, 'mbx_inconnue').POST('/v1/get_settings', { body: {} });
  t.equal(stranger.response.status, 401);
  t.equal(stranger.error?.error.code, 'unauthorized');
});

/** The README's example, the one ```ts block of clients/typescript/README.md, importing the client by its absolute path. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'clients/typescript/README.md'), 'utf8');
  const [, code] = /```ts\n([\s\S]*?)```/.exec(readme)!;
  return code!.replace("'./clients/typescript/index.js'", JSON.stringify(join(ROOT, 'clients/typescript/index.js')));
}

t.test(
  "the README's example runs as written (the service's address aside): an inbox made, a test mail queued",
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'mailbox-example-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    // Transpiled here, importing the client's source (the test loader compiles the repository's files only).
    const code = readmeExample()
      .replace('http://127.0.0.1:8080', svc.url)
      .replace(/index\.js"/, 'index.ts"');
    const { outputText } = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(dir, 'example.mjs'), outputText);
    const { apiKey } = await svc.space({ plan: 'pro' });
    const { stdout } = await promisify(execFile)(process.execPath, [...CHILD_EXEC_ARGV, join(dir, 'example.mjs')], {
      env: { ...process.env, MAILBOX_KEY: apiKey },
    });
    t.match(stdout, /^queued \d{4}-\d\d-\d\dT/);
  },
);

t.test('every registered tool answers through the client', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  // The tool's name is only known at run time here: its types are checked by the compiled file above.
  const call = createMailboxClient(svc.url, apiKey).POST as unknown as (
    path: string,
    init: { body: unknown },
  ) => ReturnType<MailboxClient['POST']>;
  for (const tool of TOOLS) {
    const example = EXAMPLES[tool.name];
    if (!example) continue; // test/foundation/mcp.test.ts requires one per tool
    const { response, error } = await call(`/v1/${tool.name}`, { body: await example({ svc, spaceId, apiKey }) });
    t.equal(response.status, 200, `${tool.name}: ${JSON.stringify(error)}`);
  }
});
