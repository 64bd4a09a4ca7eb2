import type { Static, TObject } from '@sinclair/typebox';
import type { Access } from '../../actors/space.js';
import type { Permission } from '../records.js';
import type { Runtime } from '../runtime.js';

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
}

export type Effect = 'read-only' | 'write' | 'write, irreversible';

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
  handler(ctx: ToolContext, input: Static<I>): Promise<Static<O>>;
  text(output: Static<O>, input: Static<I>): string;
}

export const defineTool = <I extends TObject, O extends TObject>(tool: Tool<I, O>): Tool<I, O> => tool;
