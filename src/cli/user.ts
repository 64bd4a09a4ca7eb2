/**
 * The user's commands, over HTTP like any client: `mailbox call <tool> [json]` and `mailbox tail`,
 * configured by MAILBOX_URL (default http://127.0.0.1:8080) and MAILBOX_KEY.
 */
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CliIo } from './io.js';

const DEFAULT_URL = 'http://127.0.0.1:8080';
/** How long `tail` waits before asking again when nothing was new (event_feed answers at once). */
const TAIL_IDLE_MS = 1000;

interface Answer {
  ok: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any tool's answer, read by field as the user asked
  body: any;
}

/** The reason of a failed fetch, as the system tells it (`ECONNREFUSED`, `ENOTFOUND`), else fetch's own words. */
const causeOf = (error: Error): string => {
  const cause = error.cause as NodeJS.ErrnoException | undefined;
  return cause?.code ?? cause?.message ?? error.message;
};

/** No answer at all from MAILBOX_URL: which URL failed, why, and how to start the service or point at it. */
const unreachable = (url: string, error: Error): Error =>
  new Error(
    `cannot reach the service at ${url} (${causeOf(error)}). Start it (\`npm run dev\` to try it, \`npm start\`, ` +
      `or \`mailbox serve\`), or set MAILBOX_URL to its address (default ${DEFAULT_URL}).`,
  );

async function post(io: CliIo, tool: string, body: unknown): Promise<Answer> {
  const base = (io.env.MAILBOX_URL || DEFAULT_URL).replace(/\/+$/, '');
  if (!/^https?:$/.test(URL.parse(base)?.protocol ?? ''))
    throw new Error(`MAILBOX_URL "${base}" is not an http(s) URL (default ${DEFAULT_URL})`);
  const url = `${base}/v1/${encodeURIComponent(tool)}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (io.env.MAILBOX_KEY) headers.authorization = `Bearer ${io.env.MAILBOX_KEY}`;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: io.signal }).catch(
    (error: Error) => {
      throw io.signal?.aborted ? error : unreachable(url, error);
    },
  );
  const text = await response.text();
  try {
    return { ok: response.ok, body: JSON.parse(text) };
  } catch {
    return { ok: false, body: { error: { code: `http_${response.status}`, message: text.slice(0, 200) } } };
  }
}

/** An error body: `<code>: <French message>` on stderr, exit 1. */
function refused(io: CliIo, answer: Answer): number {
  const error = answer.body?.error ?? {};
  io.err(`${error.code ?? 'error'}: ${error.message ?? JSON.stringify(answer.body)}`);
  return 1;
}

/** `call <tool> [json]`: POST /v1/<tool>, the JSON answer on stdout. */
export async function callCommand(args: string[], io: CliIo): Promise<number> {
  const [tool, json = '{}', ...extra] = args;
  if (!tool || extra.length) {
    io.err('usage: mailbox call <tool> [json]');
    return 2;
  }
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    io.err(`the arguments of ${tool} must be one JSON object, e.g. '{"limit":10}'`);
    return 2;
  }
  const answer = await post(io, tool, body);
  if (!answer.ok) return refused(io, answer);
  io.out(JSON.stringify(answer.body));
  return 0;
}

/**
 * `tail [--after <cursor>]`: follows event_feed, one envelope per line, resuming from the cursor it was
 * last given (kept in memory); runs until interrupted (io.signal), or stops at a refusal.
 */
export async function tailCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { after: { type: 'string' } } });
  let after = values.after;
  try {
    while (!io.signal?.aborted) {
      const answer = await post(io, 'event_feed', after === undefined ? {} : { after });
      if (!answer.ok) return refused(io, answer);
      for (const envelope of answer.body.events) io.out(JSON.stringify(envelope));
      after = answer.body.next_cursor;
      if (!answer.body.events.length) await sleep(TAIL_IDLE_MS, undefined, { signal: io.signal });
    }
  } catch (error) {
    if (!io.signal?.aborted) throw error;
  }
  return 0;
}
