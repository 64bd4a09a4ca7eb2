/**
 * docs/tools.md shows one full text answer per record type, rendered by the tools' own text() and
 * notice() (test/fixtures/text-samples.ts): each sample is a real answer (its tool's output schema
 * holds), and the docs hold exactly what the renderers write today (`npm run docs:texts`).
 */
import { readFileSync } from 'node:fs';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import t from 'tap';
import { MailboxError } from '../../src/errors.js';
import { refusalText } from '../../src/texts/refusal.js';
import { toolByName } from '../../src/tools/index.js';
import { DOCS_FILE, docsWithSamples, SAMPLES, sampleText } from '../fixtures/text-samples.js';

t.test('every sample is an answer its tool could give', async (t) => {
  for (const sample of SAMPLES) {
    const check = TypeCompiler.Compile(toolByName.get(sample.tool)!.output);
    const { output } = sampleText(sample);
    t.ok(check.Check(output), `${sample.tool}: ${JSON.stringify(check.Errors(output).First() ?? null)}`);
  }
});

t.test('docs/tools.md shows the texts the renderers write: run `npm run docs:texts` after changing one', async (t) => {
  t.ok(readFileSync(DOCS_FILE, 'utf8') === docsWithSamples(), 'docs/tools.md "What the model reads" is up to date');
});

t.test('a refusal says its hint in words once: in its message, or after it', async (t) => {
  const paused = new MailboxError('campaign_not_running', { status: 'paused' });
  t.equal(
    paused.message,
    "Cette campagne n'est pas en cours (en pause) : rien à mettre en pause. Lisez son état avec campaign_status.",
    'a state in French words',
  );
  t.equal(refusalText(paused.message, paused.hint), paused.message, 'already said: nothing added');
  const busy = new MailboxError('workspace_capacity', { memory: true, retry_after_seconds: 60 });
  t.equal(refusalText(busy.message, busy.hint), `${busy.message} Précision : limite de mémoire du service atteinte.`);
  const domains = new MailboxError('domain_not_allowed', {
    allowed_domains: ['a.fr', 'b.fr'],
    inbox_id: 'inb_01m7ye4zq1f0b3c5d7e9',
  });
  t.equal(
    refusalText(domains.message, domains.hint),
    `${domains.message} Précision : boîte concernée : inb_01m7ye4zq1f0b3c5d7e9.`,
    'the domains are in the message, the inbox is not',
  );
});
