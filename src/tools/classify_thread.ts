import { Type } from '@sinclair/typebox';
import { classifyThread, threadView } from '../../actors/thread.js';
import { MailboxError } from '../errors.js';
import { lines } from '../texts/lists.js';
import { threadLines } from '../texts/mail.js';
import { defineTool } from './registry.js';
import { Id, Input, Output, ThreadSchema } from './schemas.js';

/** Labels are short tags, not notes: at most 20 per thread, each 1 to 40 characters (docs/tools.md). */
const LABELS_MAX = 20;
const LABEL_CHARS = 40;

export default defineTool({
  name: 'classify_thread',
  description:
    'Classe un fil : labels remplace la liste complète de ses étiquettes (au plus 20, de 1 à 40 caractères chacune ; [] les retire ' +
    'toutes), archived archive ou restaure, read marque ses messages reçus lus ou non lus. Ne change ni les messages, ni les blocages, ' +
    'ni les envois. Un nouveau message reçu ramène un fil archivé.',
  input: Input({
    thread_id: Id('thread'),
    labels: Type.Optional(
      Type.Array(
        Type.String({
          minLength: 1,
          maxLength: LABEL_CHARS,
          pattern: '^[^\\u0000-\\u001f]+$',
          description: 'une étiquette, sans retour à la ligne',
        }),
        {
          maxItems: LABELS_MAX,
          uniqueItems: true,
        },
      ),
    ),
    archived: Type.Optional(Type.Boolean()),
    read: Type.Optional(Type.Boolean()),
  }),
  output: Output({ thread: ThreadSchema }),
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    if (input.labels === undefined && input.archived === undefined && input.read === undefined) {
      throw new MailboxError('invalid_argument', null, { reason: 'rien à changer : donnez labels, archived ou read.' });
    }
    const labels = input.labels?.map((label) => label.trim());
    if (labels?.some((label) => !label))
      throw new MailboxError(
        'invalid_argument',
        { parameter: 'labels' },
        { reason: 'une étiquette ne peut pas être vide.' },
      );
    // The schema's uniqueItems saw them before trimming: "a" and "a " are one label.
    if (labels && new Set(labels).size < labels.length)
      throw new MailboxError('invalid_argument', { parameter: 'labels' }, { reason: 'une étiquette est en double.' });
    const thread = await classifyThread(rt, access, input.thread_id, {
      labels: labels ?? null,
      archived: input.archived ?? null,
      read: input.read ?? null,
    });
    return { thread: threadView(thread) };
  },
  hints: { destructive: true, idempotent: true },
  text: (out) => lines('Fil classé.', threadLines(out.thread)),
});
