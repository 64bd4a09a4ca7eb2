import type { TObject } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import type { Access } from '../../actors/space.js';
import { MailboxError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { permissionList } from '../texts.js';
import { ContentFrames } from '../texts/frame.js';
import { TOOLS, toolByName } from './index.js';
import { completeAnswer, type EmbeddedFile, type Tool } from './registry.js';
import { compileOutput, InputValidator } from './validate.js';

interface Compiled {
  input: InputValidator<TObject>;
  output: TypeCheck<TObject>;
}

const compiled = new Map<string, Compiled>(
  TOOLS.map((tool) => [tool.name, { input: new InputValidator(tool.input), output: compileOutput(tool.output) }]),
);

export interface ToolResult {
  output: Record<string, unknown>;
  /** The French text, rendered only for the front ends that show it (MCP); its mail content framed with a new token. */
  text(): string;
  /** Files the tool embeds in its MCP answer (none unless the caller asked for them). */
  resources: EmbeddedFile[];
}

export interface CallOptions {
  /** The caller shows embedded files (MCP): a tool reads a file for them only then. */
  embedFiles?: boolean;
}

export function mayCall(tool: Tool, access: Access): boolean {
  return tool.permission === 'any' || tool.permission.some((p) => access.key.permissions.includes(p));
}

/**
 * The one path every front end takes: tool, permission, parameters, verified space, handler, output.
 * The caller is already authenticated.
 */
export async function callTool(
  rt: Runtime,
  access: Access,
  name: string,
  body: unknown,
  options: CallOptions = {},
): Promise<ToolResult> {
  const tool = toolByName.get(name);
  if (!tool) throw new MailboxError('not_found', null, { reason: `L'outil « ${name} » n'existe pas.` });
  if (!mayCall(tool, access)) {
    throw new MailboxError('forbidden', null, {
      reason: `L'outil ${tool.name} demande la permission ${permissionList(tool.permission as string[]).replace(/, /g, ' ou ')}.`,
    });
  }
  const check = compiled.get(tool.name)!;
  const input = check.input.parse(body);
  if (tool.verifiedRequired && !access.space.verified) throw new MailboxError('space_unverified');
  const resources: EmbeddedFile[] | undefined = options.embedFiles ? [] : undefined;
  const callAs = async (who: Access, other: string, args: unknown) => (await callTool(rt, who, other, args)).output;
  const answer = (await tool.handler({ rt, access, resources, callAs }, input)) as Record<string, unknown>;
  const { output, text } = completeAnswer(tool, answer, input);
  if (!check.output.Check(output)) {
    const error = check.output.Errors(output).First();
    rt.log.error('tool output does not match its schema', {
      tool: tool.name,
      path: error?.path,
      problem: error?.message,
    });
    throw new MailboxError('internal');
  }
  return { output, text: () => text(new ContentFrames()), resources: resources ?? [] };
}
