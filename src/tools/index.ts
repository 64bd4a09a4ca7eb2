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
import send_email from './send_email.js';
import reply_to_thread from './reply_to_thread.js';
import get_message from './get_message.js';
import get_attachment from './get_attachment.js';
import cancel_message from './cancel_message.js';
import approve_message from './approve_message.js';
import list_drafts from './list_drafts.js';
import update_draft from './update_draft.js';
import set_webhook from './set_webhook.js';
import event_feed from './event_feed.js';
import list_threads from './list_threads.js';
import get_thread from './get_thread.js';
import classify_thread from './classify_thread.js';
import search_threads from './search_threads.js';
import attach_human from './attach_human.js';
import verify from './verify.js';
import close_space from './close_space.js';
import billing_status from './billing_status.js';
import subscribe from './subscribe.js';
import list_suppressions from './list_suppressions.js';
import add_suppression from './add_suppression.js';
import remove_suppression from './remove_suppression.js';
import add_filter from './add_filter.js';
import list_filters from './list_filters.js';
import remove_filter from './remove_filter.js';
import open_workspace from './open_workspace.js';
import navigate_workspace from './navigate_workspace.js';
import workspace_events from './workspace_events.js';
import create_audience from './create_audience.js';
import add_contacts from './add_contacts.js';
import remove_contacts from './remove_contacts.js';
import list_audiences from './list_audiences.js';
import list_contacts from './list_contacts.js';
import delete_audience from './delete_audience.js';
import create_campaign from './create_campaign.js';
import start_campaign from './start_campaign.js';
import pause_campaign from './pause_campaign.js';
import list_campaigns from './list_campaigns.js';
import campaign_status from './campaign_status.js';
import get_contact from './get_contact.js';

/** Every tool the service answers, by name. A tool not listed here does not exist on any front end. */
export const TOOLS: readonly Tool[] = [
  create_key,
  list_keys,
  revoke_key,
  get_settings,
  list_events,
  create_inbox,
  list_inboxes,
  inbox_status,
  delete_inbox,
  request_inbox_review,
  add_domain,
  verify_domain,
  list_domains,
  remove_domain,
  send_email,
  reply_to_thread,
  get_message,
  get_attachment,
  cancel_message,
  approve_message,
  list_drafts,
  update_draft,
  set_webhook,
  event_feed,
  attach_human,
  verify,
  close_space,
  billing_status,
  subscribe,
  list_suppressions,
  add_suppression,
  remove_suppression,
  add_filter,
  list_filters,
  remove_filter,
  list_threads,
  get_thread,
  classify_thread,
  search_threads,
  open_workspace,
  navigate_workspace,
  workspace_events,
  create_audience,
  add_contacts,
  remove_contacts,
  list_audiences,
  list_contacts,
  get_contact,
  delete_audience,
  create_campaign,
  start_campaign,
  pause_campaign,
  list_campaigns,
  campaign_status,
];

export const toolByName = new Map(TOOLS.map((tool) => [tool.name, tool]));
