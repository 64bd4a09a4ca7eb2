/** What `mailbox` says when a command is not one it knows. */
export const USAGE = `usage:
  mailbox serve [--role all|http|smtp|worker]
  mailbox serve --dev [--new-key]      development mode: a dev space, ready commands, mail in var/outbox
  mailbox call <tool> [json]           POST /v1/<tool> to MAILBOX_URL with MAILBOX_KEY, prints the answer
  mailbox tail [--after <cursor>]      follows event_feed, one event per line
  mailbox admin create-space --human <email> [--name <name>] [--plan <plan>] [--verified] [--managed]
  mailbox admin resume-inbox <inbox_id> --space <space_id>
  mailbox admin resume-inbox <address>
  mailbox admin set-plan <space_id> <plan>
  mailbox admin recount <inbox_id> --space <space_id>
  mailbox admin service-dkim-records
  mailbox admin index-humans           lets the humans of spaces made before the sign-in existed sign in
  mailbox admin migrate                takes the store to this version's storage format (every other process stopped)`;
