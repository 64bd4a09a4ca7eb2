import type { Tool } from './registry.js';
import create_key from './create_key.js';
import get_settings from './get_settings.js';
import list_events from './list_events.js';
import list_keys from './list_keys.js';
import revoke_key from './revoke_key.js';

/** Every tool the service answers, by name. A tool not listed here does not exist on any front end. */
export const TOOLS: readonly Tool[] = [create_key, list_keys, revoke_key, get_settings, list_events] as unknown as Tool[];

export const toolByName = new Map(TOOLS.map((tool) => [tool.name, tool]));
