/**
 * The service's own mails (a space human's 6-digit code...): from `Mailbox <no-reply@<first service
 * domain>>`, plain text, no unsubscribe link (a mail the person asked for is no list), through the
 * runtime's transport like any message. Bounces go to `bounces@` of that domain: no message of a space
 * to update, so no VERP. Signed with the operator's key when SERVICE_DKIM_KEY_FILE is set.
 */
import type { SystemMail } from '../ports.js';
import type { Runtime } from '../runtime.js';
import { serviceDkimKey } from './dkim.js';
import { transportFor } from './transports.js';
import type { DeliveryResult } from './types.js';

export async function sendSystemMail(rt: Runtime, mail: SystemMail): Promise<DeliveryResult> {
  const domain = rt.config.serviceDomains[0] ?? rt.config.mxHost;
  // A message id of its own names the outbox file and the Message-ID; no space stores it.
  const id = rt.ids.next('message');
  return transportFor(rt).send({
    id,
    messageIdHeader: `<${id}@${domain}>`,
    from: { address: `no-reply@${domain}`, name: 'Mailbox' },
    to: { address: mail.to, name: null },
    cc: [],
    bcc: [],
    replyTo: null,
    subject: mail.subject,
    text: mail.text,
    html: null,
    inReplyTo: null,
    references: [],
    unsubscribe: null,
    footer: false,
    returnPath: `bounces@${domain}`,
    dkim: serviceDkimKey(rt, domain),
  });
}
