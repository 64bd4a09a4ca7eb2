/**
 * The side effects a behaviour needs without performing them (docs/architecture.md, "Layers"): typed
 * here, on the core side, implemented by the workers, handed in by the composition root
 * (src/cli/compose.ts). A runtime nobody composed has none: a behaviour that asks fails loudly.
 */
import type { Plan } from './config.js';
import type { BlobStore } from './blobs/store.js';

/** One of the service's own mails (a space human's 6-digit code...). */
export interface SystemMail {
  to: string;
  subject: string;
  text: string;
}

/** What became of a mail: sent, or refused with its delivery code (src/mail/delivery-codes.ts). */
export interface MailOutcome {
  ok: boolean;
  code?: string;
}

/** The payment provider behind subscribe and close_space. */
export interface BillingProvider {
  /** The Checkout page where the human pays for `plan`. */
  checkoutUrl(spaceId: string, plan: Plan, email: string | null): Promise<string>;
  /** Cancels every active subscription of the space; billing_unavailable unless the provider confirms. */
  cancelSubscriptions(spaceId: string): Promise<void>;
}

export interface Ports {
  systemMail(mail: SystemMail): Promise<MailOutcome>;
  /** The configured provider, or null (read at each call: the settings may change in a test). */
  billing(): BillingProvider | null;
  /** Where attachments, raw sources and long bodies live (src/blobs/store.ts). */
  blobs: BlobStore;
}

const notComposed = (): never => {
  throw new Error('side-effect ports not wired: the runtime was not composed (src/cli/compose.ts)');
};

const unwiredBlobs: BlobStore = {
  put: async () => notComposed(),
  putSource: async () => notComposed(),
  getSource: async () => notComposed(),
  get: async () => notComposed(),
  stream: async () => notComposed(),
  list: async () => notComposed(),
  spaces: async () => notComposed(),
  remove: async () => notComposed(),
  removeSpace: async () => notComposed(),
};

export const unwiredPorts: Ports = { systemMail: async () => notComposed(), billing: notComposed, blobs: unwiredBlobs };
