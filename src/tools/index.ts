import type { Tool } from './registry.js';
import create_key from './create_key.js';
import get_settings from './get_settings.js';
import list_events from './list_events.js';
import list_keys from './list_keys.js';
import revoke_key from './revoke_key.js';
import create_inbox from './create_inbox.js';
import list_inboxes from './list_inboxes.js';
import inbox_status from './inbox_status.js';
import delete_inbox from './delete_inbox.js';
import request_inbox_review from './request_inbox_review.js';
import add_domain from './add_domain.js';
import verify_domain from './verify_domain.js';
import list_domains from './list_domains.js';
import remove_domain from './remove_domain.js';

/** Every tool the service answers, by name. A tool not listed here does not exist on any front end. */
export const TOOLS: readonly Tool[] = [
  create_key, list_keys, revoke_key, get_settings, list_events,
  create_inbox, list_inboxes, inbox_status, delete_inbox, request_inbox_review,
  add_domain, verify_domain, list_domains, remove_domain,
] as unknown as Tool[];

export const toolByName = new Map(TOOLS.map((tool) => [tool.name, tool]));
