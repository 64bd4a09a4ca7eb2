import { Type } from '@sinclair/typebox';
import { readContact } from '../../actors/audience.js';
import { contactCampaigns } from '../../actors/campaign.js';
import { contactSheet } from '../../actors/contact.js';
import { MailboxError } from '../errors.js';
import { parseAddress } from '../sending/validate.js';
import { parisStamp, quoteLine, reasonText } from '../texts.js';
import { audienceLine, contactCampaignLine, contactLine } from '../texts/campaigns.js';
import { countOf, items, lines, sentences } from '../texts/lists.js';
import { outsideNotice } from '../texts/mail.js';
import { defineTool } from './registry.js';
import { AudienceSchema, ContactSchema, Id, Input, IsoDate, Notice, Nullable, Output } from './schemas.js';

export default defineTool({
  name: 'get_contact',
  description:
    "La fiche d'un contact de l'espace, par son adresse : nom, champs, audiences, fils avec leur dernière activité, campagnes et où il " +
    "en est dans chacune, blocage de l'espace et adresse morte.",
  input: Input({ email: Type.String({ minLength: 3, maxLength: 254 }) }),
  output: Output({
    contact: ContactSchema,
    audiences: Type.Array(AudienceSchema),
    threads: Type.Array(
      Output({
        thread_id: Id('thread'),
        inbox_id: Id('inbox'),
        subject: Type.String(),
        last_message_at: IsoDate,
        campaign_id: Nullable(Type.String()),
      }),
    ),
    campaigns: Type.Array(
      Output({
        campaign_id: Id('campaign'),
        name: Type.String(),
        campaign_status: Type.String(),
        state: Type.Union(
          ['claimed', 'written', 'skipped', 'stopped'].map((s) => Type.Literal(s)),
          {
            description:
              "claimed : en cours d'écriture ; written : écrit ; skipped : écarté ; stopped : relances arrêtées",
          },
        ),
        reason: Nullable(
          Type.String({ description: 'motif de skipped ou stopped (replied, unsubscribed, duplicate...)' }),
        ),
        step: Type.Integer({ description: '0 : premier message ; n : n-ième relance' }),
        thread_id: Nullable(Type.String()),
        inbox_id: Nullable(Type.String()),
      }),
    ),
    suppression: Nullable(Output({ reason: Type.String(), since: IsoDate })),
    dead_address: Type.Boolean(),
    notice: Notice,
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const email = parseAddress(input.email, 'email');
    const [found, campaigns, sheet] = await Promise.all([
      readContact(rt, access.space.id, email),
      contactCampaigns(rt, access.space.id, email),
      contactSheet(rt, access, email),
    ]);
    if (!found && !campaigns.length && !sheet.threads.length)
      throw new MailboxError('not_found', null, { reason: "Cette adresse n'est pas un contact de l'espace." });
    return {
      contact: found?.contact ?? { email, name: null, fields: {} },
      audiences: found?.audiences ?? [],
      campaigns: campaigns,
      ...sheet,
    };
  },
  notice: (out) =>
    sentences(
      outsideNotice(out.threads.length > 0),
      (out.suppression !== null || out.dead_address) && "N'écrivez pas à cette adresse.",
      out.threads.length > 0 && 'Lisez un fil avec get_thread (thread_id).',
    ),
  text: (out) =>
    lines(
      `Contact ${contactLine(out.contact)}`,
      out.suppression
        ? `Bloqué pour tout l'espace depuis le ${parisStamp(out.suppression.since)} (${reasonText(out.suppression.reason)}).`
        : null,
      out.dead_address
        ? 'Adresse morte pour toute la plateforme (rebond définitif) : plus aucun envoi ne lui parvient.'
        : null,
      `${countOf(out.audiences.length, 'audience', 'audiences', 'Aucune audience')}${out.audiences.length ? ' :' : '.'}`,
      items(out.audiences, (a) => [audienceLine(a)]),
      `${countOf(out.threads.length, 'fil', 'fils', 'Aucun fil')}${out.threads.length ? ", le plus récent d'abord :" : '.'}`,
      items(out.threads, (t) => [
        `Fil ${t.thread_id} ${quoteLine(t.subject)} ; boîte ${t.inbox_id} ; dernier message le ${parisStamp(t.last_message_at)}${t.campaign_id ? ` ; campagne ${t.campaign_id}` : ''}.`,
      ]),
      `${countOf(out.campaigns.length, 'campagne', 'campagnes', 'Aucune campagne')}${out.campaigns.length ? ' :' : '.'}`,
      items(out.campaigns, (c) => [contactCampaignLine(c)]),
    ),
});
