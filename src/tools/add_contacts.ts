import { Type } from '@sinclair/typebox';
import { addContacts, MAX_CONTACTS_PER_CALL } from '../../actors/audience.js';
import { MailboxError } from '../errors.js';
import { FIELD_NAME } from '../record-schemas.js';
import { RESERVED_FIELDS } from '../sending/placeholders.js';
import { checkSecrets, oneLine } from '../sending/validate.js';
import { plural } from '../texts.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { ContactFieldsSchema, Id, Input, Output } from './schemas.js';

const Counts = Output({
  invalid: Type.Integer({ description: 'adresse invalide' }),
  duplicate: Type.Integer({ description: "déjà dans l'audience (ou deux fois dans l'appel)" }),
  suppressed: Type.Integer({ description: "bloquée par l'espace (désabonnement, plainte, blocage)" }),
  dead_address: Type.Integer({ description: 'adresse morte pour toute la plateforme (rebond définitif)' }),
});

const SKIP_WORDS: Record<string, string> = {
  invalid: 'adresse invalide',
  duplicate: "déjà dans l'audience",
  suppressed: "bloquée par l'espace",
  dead_address: 'adresse morte',
};

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
    examples: Type.Array(
      Output({
        email: Type.String(),
        reason: Type.Union(['invalid', 'duplicate', 'suppressed', 'dead_address'].map((r) => Type.Literal(r))),
      }),
    ),
  }),
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    const contacts = input.contacts.map((c, i) => {
      const name = c.name === undefined ? undefined : oneLine(c.name, `contacts[${i}].name`);
      const badField = Object.keys(c.fields ?? {}).find(
        (field) => !FIELD_NAME.test(field) || RESERVED_FIELDS.includes(field),
      );
      if (badField !== undefined) {
        throw new MailboxError(
          'invalid_argument',
          { parameter: `contacts[${i}].fields` },
          {
            reason: `nom de champ « ${badField} » refusé : lettres, chiffres et _, au plus 40 caractères, ni email, name ni unsubscribe_url.`,
          },
        );
      }
      checkSecrets(access.space.id, { [`contacts[${i}]`]: [name, ...Object.values(c.fields ?? {})].join(' ') });
      return { ...c, name };
    });
    return addContacts(rt, access, input.audience_id, contacts);
  },
  hints: { openWorld: true, idempotent: true },
  text: (out) => {
    const s = out.skipped;
    const skipped = s.invalid + s.duplicate + s.suppressed + s.dead_address;
    return lines(
      `${plural(out.added, 'contact ajouté', 'contacts ajoutés')} ; ` +
        (skipped
          ? `${plural(skipped, 'écarté', 'écartés')} : ${plural(s.invalid, 'adresse invalide', 'adresses invalides')}, ${plural(s.duplicate, 'déjà présente', 'déjà présentes')}, ` +
            `${plural(s.suppressed, "bloquée par l'espace", "bloquées par l'espace")}, ${plural(s.dead_address, 'adresse morte', 'adresses mortes')}.`
          : 'aucun écarté.'),
      out.examples.length
        ? `Exemples d'écartés : ${out.examples.map((e) => `${e.email} (${SKIP_WORDS[e.reason]})`).join(' ; ')}.`
        : null,
    );
  },
});
