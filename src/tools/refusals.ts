import type { ErrorCode } from '../errors.js';

/**
 * The codes any call can answer, whatever the tool: a malformed call, a missing key or right, a body
 * too large, the key's request budget, an unexpected fault, Redis away.
 */
export const COMMON_REFUSALS: readonly ErrorCode[] = [
  'invalid_argument',
  'unauthorized',
  'forbidden',
  'payload_too_large',
  'rate_limited',
  'internal',
  'service_unavailable',
];

/**
 * Each tool's own refusals, beside the common ones and `space_unverified` (which its `verifiedRequired`
 * flag brings). The one list OpenAPI documents per operation (docs/errors.md tells when each is
 * raised); test/foundation/openapi.test.ts checks it covers the spec's errors.json and the codes the
 * tool's own file raises.
 */
export const REFUSALS: Readonly<Record<string, readonly ErrorCode[]>> = {
  create_key: ['not_found', 'key_limit', 'key_name_taken', 'secret_in_message', 'space_rate_limited'],
  list_keys: [],
  revoke_key: ['not_found', 'own_access'],
  get_settings: [],
  list_events: [],
  set_webhook: [
    'secret_in_message',
    'webhook_too_soon',
    'space_rate_limited',
    'dns_unavailable',
    'webhooks_unavailable',
    'encryption_unavailable',
  ],
  event_feed: [],

  create_inbox: [
    'payment_required',
    'domain_not_verified',
    'domain_suspended',
    'no_sending_domain',
    'inbox_limit',
    'address_taken',
    'reserved_username',
    'domain_not_allowed',
    'secret_in_message',
    'inbox_creation_limit',
  ],
  list_inboxes: [],
  inbox_status: ['not_found'],
  delete_inbox: ['not_found', 'inbox_suspended'],
  request_inbox_review: ['not_found', 'inbox_not_suspended', 'secret_in_message'],

  add_domain: [
    'payment_required',
    'domain_taken',
    'domain_limit',
    'domain_exists',
    'domain_not_allowed',
    'public_mail_domain',
    'encryption_unavailable',
  ],
  verify_domain: ['not_found', 'domain_taken', 'dns_unavailable'],
  list_domains: [],
  remove_domain: ['not_found', 'domain_in_use'],

  send_email: [
    'payment_required',
    'not_found',
    'duplicate_recipient',
    'idempotency_conflict',
    'inbox_suspended',
    'domain_not_verified',
    'domain_suspended',
    'own_domain_required',
    'recipient_suppressed',
    'unresolved_placeholder',
    'test_recipient_not_allowed',
    'secret_in_message',
    'key_daily_cap',
    'queue_full',
    'encryption_unavailable',
    'recipient_not_allowed',
    'attachment_refused',
  ],
  reply_to_thread: [
    'payment_required',
    'not_found',
    'idempotency_conflict',
    'inbox_suspended',
    'domain_not_verified',
    'domain_suspended',
    'own_domain_required',
    'recipient_suppressed',
    'unresolved_placeholder',
    'secret_in_message',
    'key_daily_cap',
    'queue_full',
    'thread_loop_guard',
    'encryption_unavailable',
    'recipient_not_allowed',
    'attachment_refused',
  ],
  get_message: ['not_found'],
  get_attachment: ['not_found', 'encryption_unavailable'],
  cancel_message: ['not_found', 'not_cancellable'],
  approve_message: [
    'payment_required',
    'not_found',
    'not_draft',
    'revision_mismatch',
    'inbox_suspended',
    'domain_not_verified',
    'domain_suspended',
    'recipient_suppressed',
    'queue_full',
    'encryption_unavailable',
    'recipient_not_allowed',
  ],
  list_drafts: ['not_found'],
  update_draft: ['not_found', 'not_draft', 'unresolved_placeholder', 'secret_in_message', 'attachment_refused'],

  list_threads: ['not_found'],
  get_thread: ['not_found'],
  classify_thread: ['not_found'],
  search_threads: ['not_found'],

  attach_human: ['code_too_soon', 'code_limit', 'code_not_sent'],
  verify: ['no_pending_code', 'invalid_code', 'code_expired', 'too_many_attempts'],
  close_space: [
    'space_managed',
    'no_human',
    'no_pending_code',
    'invalid_code',
    'code_expired',
    'too_many_attempts',
    'code_too_soon',
    'code_limit',
    'code_not_sent',
    'billing_unavailable',
  ],
  billing_status: [],
  subscribe: ['billing_unavailable'],

  list_suppressions: [],
  add_suppression: [],
  remove_suppression: ['not_found', 'suppression_locked'],

  add_filter: ['not_found', 'filter_limit'],
  list_filters: ['not_found'],
  remove_filter: ['not_found'],

  open_workspace: ['workspace_capacity'],
  // workspace_capacity: listed by the spec; here an instance counts from open_workspace, so only that tool raises it.
  navigate_workspace: ['workspace_expired', 'access_changed', 'workspace_capacity'],
  workspace_events: ['workspace_expired', 'access_changed', 'workspace_busy'],
  create_audience: ['secret_in_message'],
  add_contacts: ['not_found', 'secret_in_message', 'contact_limit'],
  remove_contacts: ['not_found'],
  list_audiences: [],
  list_contacts: ['not_found'],
  delete_audience: ['not_found', 'audience_in_use'],
  get_contact: ['not_found'],
  create_campaign: [
    'payment_required',
    'not_found',
    'inbox_suspended',
    'domain_not_verified',
    'domain_suspended',
    'own_domain_required',
    'unresolved_placeholder',
    'secret_in_message',
  ],
  start_campaign: ['not_found', 'campaign_not_startable'],
  pause_campaign: ['not_found', 'campaign_not_running'],
  list_campaigns: [],
  campaign_status: ['not_found'],
};

/** Every code a call of `tool` can answer: common, then `space_unverified` when it needs a verified space, then its own. */
export const refusalsOf = (tool: { name: string; verifiedRequired: boolean }): ErrorCode[] => {
  const own = REFUSALS[tool.name];
  if (!own) throw new Error(`${tool.name}: no entry in src/tools/refusals.ts`);
  return [...new Set([...COMMON_REFUSALS, ...(tool.verifiedRequired ? (['space_unverified'] as const) : []), ...own])];
};
