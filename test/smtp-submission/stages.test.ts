/** The pure parts of SMTP submission (src/smtp/submit.ts, src/errors.ts smtpRefusal) called alone, with plain values. */
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { MailboxError, smtpRefusal } from '../../src/errors.js';
import { encryptedOrLoopback, isLoopback, recipientsOf, type AuthContext } from '../../src/smtp/submit.js';

const auth = (address: string, secure: boolean) =>
  ({ address, secure, secret: 'mbx_x', access: null }) as unknown as AuthContext;

t.test('AUTH without TLS only from loopback: 530 5.7.0 otherwise', async (t) => {
  for (const address of ['127.0.0.1', '127.0.0.9', '::1', '::ffff:127.0.0.1']) {
    t.ok(isLoopback(address), address);
    t.same(await encryptedOrLoopback(auth(address, false)), { kind: 'continue' }, address);
  }
  for (const address of ['203.0.113.5', '::ffff:203.0.113.5', '2001:db8::1', '10.0.0.1', 'pas-une-adresse'])
    t.notOk(isLoopback(address), address);
  t.match(await encryptedOrLoopback(auth('203.0.113.5', false)), {
    kind: 'reject',
    code: 530,
    message: /^5\.7\.0 .*STARTTLS/,
  });
  t.same(await encryptedOrLoopback(auth('203.0.113.5', true)), { kind: 'continue' }, 'after STARTTLS');
});

t.test('recipientsOf: the envelope decides who, the headers how (to, cc, bcc)', async (t) => {
  const marie = { address: 'marie@exemple.fr', name: 'Marie' };
  const paul = { address: 'paul@exemple.fr', name: null };
  const lea = { address: 'lea@exemple.fr', name: 'Léa' };
  t.same(
    recipientsOf({ to_list: [marie], cc: [] }, ['Marie@Exemple.fr']),
    { to: marie, cc: [], bcc: [] },
    'one recipient, its name kept',
  );
  t.same(
    recipientsOf({ to_list: [marie, paul], cc: [lea] }, [
      'marie@exemple.fr',
      'paul@exemple.fr',
      'lea@exemple.fr',
      'cache@exemple.fr',
      'marie@exemple.fr',
    ]),
    { to: marie, cc: [paul, lea], bcc: [{ address: 'cache@exemple.fr', name: null }] },
    'more To addresses and Cc are visible copies; an envelope address no header names is a hidden one',
  );
  t.same(
    recipientsOf({ to_list: [paul, marie], cc: [] }, ['marie@exemple.fr']),
    { to: marie, cc: [], bcc: [] },
    'a header address outside the envelope receives nothing',
  );
  t.throws(
    () => recipientsOf({ to_list: [paul], cc: [marie] }, ['marie@exemple.fr']),
    { code: 'invalid_argument', hint: { parameter: 'To' } },
    'no To among the recipients',
  );
  t.throws(
    () => recipientsOf({ to_list: [], cc: [] }, ['marie@exemple.fr']),
    { code: 'invalid_argument' },
    'no To at all',
  );
});

t.test(
  'smtpRefusal: 4xx where retrying helps (429, 503), 5xx otherwise, the code and the French in ASCII',
  async (t) => {
    t.same(smtpRefusal(new MailboxError('rate_limited', { retry_after_seconds: 3 })), {
      code: 451,
      text: '4.7.1 rate_limited: Trop de requetes pour cette cle. Reessayez dans 3 s.',
    });
    t.match(smtpRefusal(new MailboxError('service_unavailable')), {
      code: 451,
      text: /^4\.3\.0 service_unavailable: /,
    });
    t.match(
      smtpRefusal(new MailboxError('workspace_capacity', { memory: true })),
      { code: 451 },
      'a status the hint decides',
    );
    t.match(smtpRefusal(new MailboxError('key_daily_cap')), {
      code: 451,
      text: /^4\.7\.1 key_daily_cap: Plafond quotidien/,
    });
    t.match(smtpRefusal(new MailboxError('unauthorized')), { code: 535, text: /^5\.7\.8 unauthorized: / });
    t.match(smtpRefusal(new MailboxError('payload_too_large')), { code: 552, text: /^5\.3\.4 / });
    t.match(smtpRefusal(new MailboxError('invalid_argument', { parameter: 'subject' })), {
      code: 554,
      text: /^5\.6\.0 invalid_argument: Parametre invalide "subject" : /,
    });
    t.match(smtpRefusal(new MailboxError('recipient_suppressed')), {
      code: 550,
      text: /^5\.7\.1 recipient_suppressed: /,
    });
    t.match(smtpRefusal(new MailboxError('space_unverified')), { code: 550 });
    t.match(smtpRefusal(new MailboxError('own_domain_required')), { code: 550, text: /^[\x20-\x7e]+$/ }, 'ASCII only');
  },
);

t.test('SUBMISSION_PORT: off unless set', async (t) => {
  t.equal(loadConfig({}).submissionPort, null);
  t.equal(loadConfig({ SUBMISSION_PORT: '587' }).submissionPort, 587);
  t.throws(() => loadConfig({ SUBMISSION_PORT: 'smtp' }), /SUBMISSION_PORT doit être un entier de 0 à 65535/);
});
