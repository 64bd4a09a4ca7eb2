import { Type } from '@sinclair/typebox';
import { readAudience } from '../../actors/audience.js';
import { campaignInboxes, createCampaign } from '../../actors/campaign.js';
import { MailboxError } from '../errors.js';
import { checkPlaceholders, checkSecrets, oneLine, parseDate, SUBJECT_MAX_CHARS } from '../sending/validate.js';
import { campaignLines } from '../texts/campaigns.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import {
  CampaignSchema,
  FollowUpSchema,
  HTML_MAX_CHARS,
  Id,
  Input,
  Notice,
  Output,
  TEXT_MAX_CHARS,
} from './schemas.js';

/** Most inboxes one campaign writes from. */
const MAX_CAMPAIGN_INBOXES = 50;

export default defineTool({
  name: 'create_campaign',
  description:
    "Prépare une campagne (brouillon) : un premier message à chaque contact d'une audience depuis une ou plusieurs boîtes de domaines " +
    "vérifiés de l'espace, puis jusqu'à trois relances (follow_ups) en réponse dans son fil, after_days jours ouvrés (Paris) après le " +
    'message précédent ; une réponse du contact arrête ses relances. {{email}}, {{name}} et les champs des contacts ({{ville}}...) ' +
    'doivent se résoudre pour chaque contact ; {{unsubscribe_url}} comme dans send_email. Chaque message suit toutes les règles de ' +
    "send_email (blocages, 30 jours, quotas et montée en charge, fenêtre, espacement). Elle ne part qu'une fois lancée par start_campaign " +
    '(permission approve).',
  input: Input({
    name: Type.String({ minLength: 1, maxLength: 120, description: 'nom de la campagne, une ligne' }),
    audience_id: Id('audience'),
    inbox_ids: Type.Array(Id('inbox'), {
      minItems: 1,
      maxItems: MAX_CAMPAIGN_INBOXES,
      uniqueItems: true,
      description: "boîtes d'envoi, actives et de domaines vérifiés",
    }),
    subject: Type.String({ minLength: 1, maxLength: SUBJECT_MAX_CHARS, description: 'une ligne ; {{champ}} permis' }),
    text: Type.String({
      minLength: 1,
      maxLength: TEXT_MAX_CHARS,
      description: 'texte brut ; {{champ}} et {{unsubscribe_url}} permis',
    }),
    html: Type.Optional(Type.String({ maxLength: HTML_MAX_CHARS })),
    follow_ups: Type.Optional(Type.Array(FollowUpSchema, { maxItems: 3 })),
    requires_approval: Type.Optional(
      Type.Boolean({ description: 'chaque message attend une validation humaine (brouillon)' }),
    ),
    send_after: Type.Optional(
      Type.String({
        minLength: 10,
        maxLength: 40,
        description: 'pas avant cette date (ISO 8601, ou heure de Paris sans fuseau)',
      }),
    ),
  }),
  output: Output({ campaign: CampaignSchema, notice: Notice }),
  permission: ['send', 'approve'],
  verifiedRequired: true,
  effect: 'write',
  async handler({ rt, access }, input) {
    const subject = oneLine(input.subject, 'subject');
    const followUps = input.follow_ups ?? [];
    checkPlaceholders({ subject: subject.replace(/\{\{\s*(?!unsubscribe_url\b)[^{}]*?\s*\}\}/g, '') });
    checkSecrets(access.space.id, {
      name: input.name,
      subject,
      text: input.text,
      html: input.html,
      ...Object.fromEntries(followUps.map((f, i) => [`follow_ups[${i}].text`, f.text])),
    });
    if (access.space.plan === 'none') throw new MailboxError('payment_required', null, { reason: 'une campagne' });
    const sendAfter = input.send_after === undefined ? null : parseDate(input.send_after, 'send_after');
    await readAudience(rt, access.space.id, input.audience_id);
    await campaignInboxes(rt, access, input.inbox_ids);
    const campaign = await createCampaign(rt, access, {
      name: oneLine(input.name, 'name'),
      audience_id: input.audience_id,
      inbox_ids: input.inbox_ids,
      subject,
      text: input.text,
      html: input.html || null,
      follow_ups: followUps,
      requires_approval: input.requires_approval ?? false,
      send_after: sendAfter,
    });
    return { campaign };
  },
  notice: (out) =>
    `Elle ne part pas avant d'être lancée : start_campaign (campaign_id ${out.campaign.id}, permission approve).`,
  text: (out, _input, frames) => lines('Campagne préparée, en brouillon.', campaignLines(out.campaign, frames)),
});
