import type { Static, TObject } from '@sinclair/typebox';
import type { Access } from '../../actors/space.js';
import type { Permission } from '../record-schemas.js';
import type { Runtime } from '../runtime.js';
import type { ContentFrames } from '../texts/frame.js';

/** A file a tool hands to MCP clients beside its answer (an embedded resource); other front ends ignore it. */
export interface EmbeddedFile {
  uri: string;
  mimeType: string;
  /** base64 */
  blob: string;
}

export interface ToolContext {
  rt: Runtime;
  access: Access;
  /** Where a tool puts the files it embeds in its MCP answer (get_attachment); absent when the caller shows none (HTTP). */
  resources?: EmbeddedFile[];
  /** Another tool through the one dispatch (permission, parameters, output checked), as `access`: its structured answer. */
  callAs(access: Access, name: string, args: unknown): Promise<Record<string, unknown>>;
}

export type Effect = 'read-only' | 'write' | 'write, irreversible';

/** A tool's answer as its handler builds it: everything but `notice`, which the tool's `notice()` writes. */
export type Answer<O extends TObject> = Omit<Static<O>, 'notice'>;

/**
 * What MCP's tool annotations say beyond `effect` (src/mcp/server.ts; the rule in docs/tools.md, "MCP
 * annotations"): `openWorld`, the tool can make the service mail someone (or call an address) outside
 * the space; `destructive`, a write that removes or replaces what was there (every irreversible write is);
 * `idempotent`, a write whose repetition with the same arguments changes nothing more.
 */
export interface Hints {
  openWorld?: true;
  destructive?: true;
  idempotent?: true;
}

/**
 * A tool: one input schema and one output schema (HTTP validation, MCP schemas and OpenAPI all come
 * from them), who may call it, what it does and how it tells it in French.
 */
export interface Tool<I extends TObject = TObject, O extends TObject = TObject> {
  name: string;
  /** French, for the agent choosing a tool: what it does, when to use it, what it refuses. */
  description: string;
  input: I;
  output: O;
  /** Any one of these permissions opens the tool; `any` = any valid key. */
  permission: readonly Permission[] | 'any';
  verifiedRequired: boolean;
  effect: Effect;
  /**
   * MCP Apps (src/mcp/server.ts): `resourceUri`, the view the host shows with this tool's result;
   * `visibility` ["app"], a tool only the view calls (the model does not see it).
   */
  ui?: { resourceUri?: string; visibility?: ('model' | 'app')[] };
  hints?: Hints;
  handler(ctx: ToolContext, input: Static<I>): Promise<Answer<O>>;
  /**
   * What the text tells that the fields do not (docs/tools.md, "What the model reads"): the external-content warning, a
   * departure estimate in words, the next step; null when nothing. Given exactly when the output
   * declares `notice`; the dispatch writes it into the answer, and the text ends with it.
   */
  notice?(output: Answer<O>, input: Static<I>): string | null;
  /**
   * The French text of the answer, without its notice (the dispatch adds it): the whole answer, item
   * by item, composed from the record renderers of src/texts/. `frames` holds the answer's mail content.
   */
  text(output: Static<O>, input: Static<I>, frames: ContentFrames): string;
}

export function defineTool<I extends TObject, O extends TObject>(tool: Tool<I, O>): Tool<I, O> {
  if ('notice' in tool.output.properties !== (tool.notice !== undefined)) {
    throw new Error(`${tool.name}: an output declaring notice and a notice() go together`);
  }
  return tool;
}

/** The answer as every front end returns it (notice written in), and its French text for MCP. */
export function completeAnswer(tool: Tool, answer: Record<string, unknown>, input: Record<string, unknown>) {
  const output = tool.notice ? { ...answer, notice: tool.notice(answer, input) } : answer;
  const text = (frames: ContentFrames): string => {
    const notice = typeof output.notice === 'string' ? output.notice : '';
    return [tool.text(output, input, frames), notice].filter(Boolean).join('\n');
  };
  return { output, text };
}
