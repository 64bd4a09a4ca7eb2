import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENT_TYPES } from '../../actors/events.js';
import { declareWebhook } from '../../actors/webhook.js';
import { requireMasterKey } from '../crypto.js';
import { MailboxError } from '../errors.js';
import { carriesSecret } from '../secrets.js';
import { quote } from '../texts.js';
import { checkedAddress, parseWebhookUrl, WebhookUrlError } from '../webhooks/address.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { Input, Notice, Output } from './schemas.js';

const badUrl = (reason: string) => new MailboxError('invalid_argument', { parameter: 'url' }, { reason });

export default defineTool({
  name: 'set_webhook',
  description:
    "Déclare l'adresse https qui reçoit les événements de l'espace en POST JSON signés (Standard Webhooks : en-têtes webhook-id, " +
    'webhook-timestamp, webhook-signature, et les mêmes en svix-*). Remplace toute adresse déjà déclarée, avec un nouveau secret ' +
    'whsec_ montré une seule fois. Un événement webhook.test part aussitôt. Adresses internes refusées (boucle locale, réseau privé, ' +
    'lien local, métadonnées). Une déclaration par minute au plus.',
  input: Input({
    url: Type.String({ minLength: 1, maxLength: 500, description: 'adresse https, au plus 500 caractères' }),
  }),
  output: Output({
    events: Type.Array(Type.String(), { description: 'les types d’événements envoyés à cette adresse' }),
    replaced: Type.Boolean({ description: 'une adresse était déjà déclarée' }),
    secret: Type.String({ description: 'whsec_… : la clé des signatures, montrée cette seule fois' }),
    url: Type.String({ description: "l'adresse déclarée" }),
    notice: Notice,
  }),
  permission: ['approve'],
  verifiedRequired: true,
  effect: 'write',
  async handler({ rt, access }, input) {
    if (!rt.config.webhooksEnabled) throw new MailboxError('webhooks_unavailable');
    requireMasterKey(rt.config);
    if (carriesSecret(input.url, access.space.id)) throw new MailboxError('secret_in_message', { parameter: 'url' });
    let url: URL;
    try {
      url = parseWebhookUrl(rt.config, input.url);
      await checkedAddress(rt.config, url);
    } catch (error) {
      if (error instanceof WebhookUrlError) throw badUrl(error.message);
      throw error;
    }
    const { secret, replaced } = await declareWebhook(rt, access, url.href);
    return { events: [...WEBHOOK_EVENT_TYPES], replaced, secret, url: url.href };
  },
  hints: { openWorld: true },
  notice: () =>
    "Le secret n'est montré qu'une fois : conservez-le maintenant pour vérifier les signatures. Un événement webhook.test part tout de suite vers cette adresse.",
  text: (out) =>
    lines(
      `Webhook ${out.replaced ? 'remplacé' : 'déclaré'} : ${quote(out.url)}.`,
      `Secret : ${out.secret}`,
      `Événements envoyés : ${out.events.join(', ')}.`,
    ),
});
