import { Type } from '@sinclair/typebox';
import { readContact } from '../../actors/audience.js';
import { contactCampaigns } from '../../actors/campaign.js';
import { contactSheet } from '../../actors/contact.js';
import { MailboxError } from '../errors.js';
import { parseAddress } from '../sending/validate.js';
import { defineTool } from './registry.js';
import { AudienceSchema, ContactSchema, Id, Input, IsoDate, Nullable, Output } from './schemas.js';

export default defineTool({
  name: 'get_contact',
  description:
    "La fiche d'un contact de l'espace, par son adresse : nom, champs, audiences, fils avec leur dernière activité, campagnes et où il " +
    "en est dans chacune, blocage de l'espace et adresse morte.",
  input: Input({ email: Type.String({ minLength: 3, maxLength: 254 }) }),
  output: Output({
    contact: ContactSchema,
    audiences: Type.Array(AudienceSchema),
    threads: Type.Array(Output({ thread_id: Id('thread'), inbox_id: Id('inbox'), subject: Type.String(), last_message_at: IsoDate, campaign_id: Nullable(Type.String()) })),
    campaigns: Type.Array(Output({
      campaign_id: Id('campaign'),
      name: Type.String(),
      campaign_status: Type.String(),
      state: Type.Union(['claimed', 'written', 'skipped', 'stopped'].map((s) => Type.Literal(s)), { description: 'claimed : en cours d\'écriture ; written : écrit ; skipped : écarté ; stopped : relances arrêtées' }),
      reason: Nullable(Type.String({ description: 'motif de skipped ou stopped (replied, unsubscribed, duplicate...)' })),
      step: Type.Integer({ description: '0 : premier message ; n : n-ième relance' }),
      thread_id: Nullable(Type.String()),
      inbox_id: Nullable(Type.String()),
    })),
    suppression: Nullable(Output({ reason: Type.String(), since: IsoDate })),
    dead_address: Type.Boolean(),
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const email = parseAddress(input.email, 'email');
    const [found, campaigns, sheet] = await Promise.all([readContact(rt, access.space.id, email), contactCampaigns(rt, access.space.id, email), contactSheet(rt, access, email)]);
    if (!found && !campaigns.length && !sheet.threads.length) throw new MailboxError('not_found', null, { reason: "Cette adresse n'est pas un contact de l'espace." });
    return {
      contact: found?.contact ?? { email, name: null, fields: {} },
      audiences: found?.audiences ?? [],
      campaigns: campaigns as never,
      ...sheet,
    };
  },
  text: (out) =>
    `${out.contact.name ? `${out.contact.name} <${out.contact.email}>` : out.contact.email} : ${out.audiences.length} audience(s), ${out.threads.length} fil(s), ` +
    `${out.campaigns.length} campagne(s)${out.suppression ? `, bloqué (${out.suppression.reason})` : ''}${out.dead_address ? ', adresse morte' : ''}.`,
});
