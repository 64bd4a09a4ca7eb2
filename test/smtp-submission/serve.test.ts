/** `mailbox serve --role smtp` starts the submission port only when SUBMISSION_PORT is set, beside the inbound server. */
import t from 'tap';
import { servedFrontEnd } from '../helpers/front-end.js';
import { rawSession } from '../helpers/inbound.js';

t.test('SUBMISSION_PORT set: a second SMTP server that offers AUTH PLAIN and LOGIN', async (t) => {
  const served = await servedFrontEnd('node', { SMTP_PORT: '0', SUBMISSION_PORT: '0', SMTP_HOST: '127.0.0.1' }, 'smtp');
  const port = Number(/"submission":"127\.0\.0\.1:(\d+)"/.exec(served.logs())?.[1]);
  t.ok(port > 0, served.logs());
  const session = await rawSession(port);
  t.match(session.greeting, /^220 .* Mailbox submission/);
  t.match(await session.say('EHLO client.test'), /^250 /);
  t.match(await session.say('MAIL FROM:<ventes@exemple.fr>'), /^530 /, 'nothing before AUTH');
});

t.test('SUBMISSION_PORT unset: no submission server', async (t) => {
  const served = await servedFrontEnd('node', { SMTP_PORT: '0', SMTP_HOST: '127.0.0.1' }, 'smtp');
  t.match(served.logs(), /"submission":null/);
});
