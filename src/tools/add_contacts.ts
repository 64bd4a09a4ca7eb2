import { Type } from '@sinclair/typebox';
import { addContacts, MAX_CONTACTS_PER_CALL } from '../../actors/audience.js';
import { MailboxError } from '../errors.js';
import { FIELD_NAME } from '../records.js';
import { RESERVED_FIELDS } from '../sending/placeholders.js';
import { checkSecrets, oneLine } from '../sending/validate.js';
import { plural } from '../texts.js';
import { defineTool } from './registry.js';
import { ContactFieldsSchema, Id, Input, Output } from './schemas.js';

const Counts = Output({
  invalid: Type.Integer({ description: 'adresse invalide' }),
  duplicate: Type.Integer({ description: "déjà dans l'audience (ou deux fois dans l'appel)" }),
  suppressed: Type.Integer({ description: "bloquée par l'espace (désabonnement, plainte, blocage)" }),
  dead_address: Type.Integer({ description: 'adresse morte pour toute la plateforme (rebond définitif)' }),
});

export default defineTool({
  name: 'add_contacts',
  description:
    `Ajoute des contacts à une audience, au plus ${MAX_CONTACTS_PER_CALL} par appel : une adresse, un nom et des champs libres ` +
    "({{champ}} dans une campagne). Les adresses invalides, déjà présentes, bloquées par l'espace ou mortes sont écartées et " +
    "comptées par motif, avec jusqu'à 20 exemples. Un contact déjà connu de l'espace reprend le nom et les champs donnés ici. " +
    'Une campagne en cours écrit aussi aux contacts ajoutés après son lancement.',
  input: Input({
    audience_id: Id('audience'),
    contacts: Type.Array(
      Input({
        email: Type.String({ minLength: 1, maxLength: 254 }),
        name: Type.Optional(Type.String({ maxLength: 120 })),
        fields: Type.Optional(ContactFieldsSchema),
      }),
      { minItems: 1, maxItems: MAX_CONTACTS_PER_CALL },
    ),
  }),
  output: Output({
    added: Type.Integer(),
    skipped: Counts,
    examples: Type.Array(Output({ email: Type.String(), reason: Type.Union(['invalid', 'duplicate', 'suppressed', 'dead_address'].map((r) => Type.Literal(r))) })),
  }),
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    const contacts = input.contacts.map((c, i) => {
      const name = c.name === undefined ? undefined : oneLine(c.name, `contacts[${i}].name`);
      const badField = Object.keys(c.fields ?? {}).find((field) => !FIELD_NAME.test(field) || RESERVED_FIELDS.includes(field));
      if (badField !== undefined) {
        throw new MailboxError('invalid_argument', { parameter: `contacts[${i}].fields` }, { reason: `nom de champ « ${badField} » refusé : lettres, chiffres et _, au plus 40 caractères, ni email, name ni unsubscribe_url.` });
      }
      checkSecrets(access.space.id, { [`contacts[${i}]`]: [name, ...Object.values(c.fields ?? {})].join(' ') });
      return { ...c, name };
    });
    return addContacts(rt, access, input.audience_id, contacts);
  },
  text: (out) => {
    const skipped = Object.values(out.skipped).reduce((a, b) => a + b, 0);
    return `${plural(out.added, 'contact ajouté', 'contacts ajoutés')}` +
      (skipped ? ` ; ${skipped} écarté(s) : ${out.skipped.invalid} invalide(s), ${out.skipped.duplicate} déjà présent(s), ${out.skipped.suppressed} bloqué(s), ${out.skipped.dead_address} adresse(s) morte(s).` : '.');
  },
});
