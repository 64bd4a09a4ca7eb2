/**
 * A campaign's contact fields are the contacts' words, hostile ones generated here: filled into the
 * HTML they are escaped (a `<script>` stays text), and a contact whose values bring a placeholder
 * (`{{unsubscribe_url}}` or any `{{…}}`) or take the subject past 300 characters or over one line is
 * skipped with its reason (campaign_status counts it) instead of written; follow-ups are checked alike
 * (fillMessage). create_campaign's own checks are unchanged.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { feedCampaign } from '../../actors/campaign-feed.js';
import type { ContactState } from '../../actors/campaign.js';
import { readMessage } from '../../actors/stored-records.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { fillMessage } from '../../src/sending/placeholders.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';

const svc = await startService({
  clock: mondayMorning(),
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, MAILBOX_DATA_DIR: mkdtempSync(join(tmpdir(), 'mbx-fields-')) },
});

const SCRIPT = '<script>alert("x")</script>';

t.test(
  'hostile fields: escaped in the HTML, verbatim in the text; placeholders brought and long subjects skip the contact',
  async (t) => {
    const s = await sender(svc);
    const { audience } = (await svc.call(s.apiKey, 'create_audience', { name: 'Champs' })).body;
    const contacts = [
      { email: 'script@destinataire.test', name: SCRIPT, fields: { ville: 'Lyon & "Paris" <b>' } },
      { email: 'lien-objet@destinataire.test', name: 'Léa', fields: { ville: '{{unsubscribe_url}}' } },
      { email: 'lien-corps@destinataire.test', name: '{{ unsubscribe_url }}', fields: { ville: 'Lyon' } },
      { email: 'autre@destinataire.test', name: 'Paul', fields: { ville: '{{societe}}' } },
      { email: 'long@destinataire.test', name: 'Zoé', fields: { ville: 'x'.repeat(290) } },
      { email: 'lignes@destinataire.test', name: 'Ana', fields: { ville: 'Lyon\r\nBcc: espion@exemple.test' } },
    ];
    t.equal(
      (await svc.call(s.apiKey, 'add_contacts', { audience_id: audience.id, contacts })).body.added,
      contacts.length,
    );
    const created = await svc.call(s.apiKey, 'create_campaign', {
      name: 'Champs',
      audience_id: audience.id,
      inbox_ids: [s.inboxId],
      subject: 'Bonjour de {{ville}}',
      text: 'Bonjour {{name}} ({{ville}}).\n{{unsubscribe_url}}',
      html: '<p>Bonjour {{name}} ({{ville}})</p><a href="{{unsubscribe_url}}">désinscription</a>',
    });
    t.equal(created.status, 200, "create_campaign's checks pass: every placeholder resolves");
    const campaignId = created.body.campaign.id;
    await svc.call(s.apiKey, 'start_campaign', { campaign_id: campaignId });
    const keys = spaceKeys(s.spaceId);
    // A visit claims as many contacts as the inbox has room for today: the skipped ones take none.
    for (
      let visit = 0;
      visit < 5 && (await svc.rt.redis.hlen(keys.campaignContacts(campaignId))) < contacts.length;
      visit++
    )
      await feedCampaign(svc.rt, s.spaceId, campaignId);

    const states = Object.fromEntries(
      Object.entries(await svc.rt.redis.hgetall(keys.campaignContacts(campaignId))).map(([email, json]) => [
        email.split('@')[0],
        JSON.parse(json) as ContactState,
      ]),
    );
    t.match(states, {
      script: { s: 'written' },
      'lien-objet': { s: 'skipped', r: 'field_placeholder' },
      'lien-corps': { s: 'skipped', r: 'field_placeholder' },
      autre: { s: 'skipped', r: 'field_placeholder' },
      long: { s: 'skipped', r: 'invalid_subject' },
      lignes: { s: 'skipped', r: 'invalid_subject' },
    });

    const message = (await readMessage(svc.rt, s.spaceId, states.script!.m))!;
    t.equal(
      message.html,
      `<p>Bonjour ${'&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'} (Lyon &amp; &quot;Paris&quot; &lt;b&gt;)</p><a href="{{unsubscribe_url}}">désinscription</a>`,
      'escaped in the HTML',
    );
    t.notMatch(message.html, /<script|<b>/);
    t.equal(
      message.text,
      `Bonjour ${SCRIPT} (Lyon & "Paris" <b>).\n{{unsubscribe_url}}`,
      'verbatim in the text, its own link kept for the delivery',
    );
    t.equal(message.subject, 'Bonjour de Lyon & "Paris" <b>');

    const figures = (await svc.call(s.apiKey, 'campaign_status', { campaign_id: campaignId })).body.figures;
    t.match(figures.skipped, { field_placeholder: 3, invalid_subject: 2 });
    const sheet = await svc.call(s.apiKey, 'get_contact', { email: 'lien-objet@destinataire.test' });
    t.match(
      sheet.body.campaigns,
      [{ campaign_id: campaignId, state: 'skipped', reason: 'field_placeholder' }],
      'get_contact tells why',
    );
    t.equal(
      codeOf(
        await svc.call(s.apiKey, 'create_campaign', { ...created.body.campaign, subject: 'Lien {{unsubscribe_url}}' }),
      ),
      'invalid_argument',
      'create_campaign still refuses a bad call',
    );
  },
);

t.test(
  'fillMessage: a follow-up (no subject) and a first message, the placeholders counted after filling',
  async (t) => {
    const contact = (fields: Record<string, string>, name: string | null = 'Léa') => ({
      email: 'lea@exemple.test',
      name,
      fields,
    });
    const followUp = { subject: null, text: 'Relance, {{prenom}}. {{unsubscribe_url}}', html: null };
    t.same(fillMessage(followUp, contact({ prenom: 'Léa' })), {
      subject: null,
      text: 'Relance, Léa. {{unsubscribe_url}}',
      html: null,
    });
    t.same(
      fillMessage(followUp, contact({ prenom: 'Léa {{unsubscribe_url}}' })),
      { fault: 'field_placeholder' },
      'a second link in a follow-up',
    );
    t.same(
      fillMessage(followUp, contact({ prenom: '{{' })),
      { subject: null, text: 'Relance, {{. {{unsubscribe_url}}', html: null },
      'braces that make no placeholder are words',
    );
    const first = { subject: '{{name}}', text: 'Bonjour', html: '<p>{{prenom}}</p>' };
    t.same(fillMessage(first, contact({ prenom: '{' }, '{')), { subject: '{', text: 'Bonjour', html: '<p>{</p>' });
    t.same(
      fillMessage({ ...first, subject: '{{name}}{{prenom}}unsubscribe_url}}' }, contact({ prenom: '{' }, '{')),
      { fault: 'field_placeholder' },
      'a placeholder made of two values and the text around them',
    );
    t.same(fillMessage({ ...first, subject: '{{name}}' }, contact({ prenom: 'x' }, 'é'.repeat(301))), {
      fault: 'invalid_subject',
    });
    t.same(
      fillMessage({ ...first, subject: '{{name}}' }, contact({ prenom: 'x' }, 'é'.repeat(300))),
      { subject: 'é'.repeat(300), text: 'Bonjour', html: '<p>x</p>' },
      '300 characters fit',
    );
  },
);

const codeOf = (res: { body: { error?: { code: string } } }) => res.body.error?.code;
