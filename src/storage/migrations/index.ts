/**
 * The migration steps, in order: step N (its file NNN-name.ts) takes a store from format N-1 to N
 * (src/storage/format.ts). A step is only ever added at the end, never changed once released.
 */
import { blobMembers } from './001-blob-members.js';
import { oauthClients } from './002-oauth-clients.js';
import { reasonCodes } from './003-reason-codes.js';
import { contactIndex } from './004-contact-index.js';
import { accessTokens } from './005-access-tokens.js';
import { eventEntries } from './006-event-entries.js';
import { dueIndex } from './007-due-index.js';
import { runningCampaigns } from './008-running-campaigns.js';
import { historyIndex } from './009-history-index.js';
import type { Migration } from './steps.js';

export const MIGRATIONS: readonly Migration[] = [
  blobMembers,
  oauthClients,
  reasonCodes,
  contactIndex,
  accessTokens,
  eventEntries,
  dueIndex,
  runningCampaigns,
  historyIndex,
];
