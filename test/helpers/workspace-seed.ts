/**
 * A space as a human finds it after some weeks of use, for the workspace's browser tests: 250 threads
 * received over the past days (two inboxes, names, labels, some read, some archived, one with a PDF
 * and an HTML version), 25 drafts an agent wrote in answer, an audience of 40 contacts, two campaigns
 * (one running whose first messages left, one not started), an assistant connected by OAuth, and
 * exactly 120 journal lines today. Seeded through the actors and the tools in process, not the
 * browser: seconds, not minutes.
 */
import { readFileSync } from 'node:fs';
import { feedCampaign } from '../../actors/campaign-feed.js';
import { receiveInbound, type InboundMail } from '../../actors/inbound.js';
import { accessOfKey } from '../../actors/space.js';
import { classifyThread } from '../../actors/thread.js';
import type { ManualClock } from '../../src/clock.js';
import { transportFor } from '../../src/delivery/transports.js';
import { callTool } from '../../src/tools/dispatch.js';
import { parisDay } from '../../src/texts.js';
import { deliverDue } from '../../src/workers/send.js';
import { connectByOAuth } from './oauth.js';
import { sender, type Sender } from './outbound.js';
import type { TestService } from './service.js';
import { receivedMail } from './mail.js';

export const PDF = readFileSync(new URL('../fixtures/facture.pdf', import.meta.url));
export const SEED = { threads: 250, archived: 10, drafts: 25, contacts: 40, journalToday: 120 } as const;

const FIRST = ['Claire', 'Marc', 'Sophie', 'Yann', 'Élodie', 'Karim', 'Nadia', 'Paul', 'Inès', 'Hugo'];
const LAST = ['Dubois', 'Lefèvre', 'Garnier', 'Morel', 'Martin', 'Benali', 'Roux', 'Fontaine', 'Chevalier', 'Petit'];
const TOPICS = [
  'Demande de devis',
  'Question sur la livraison',
  'Rendez-vous de chantier',
  'Facture en attente',
  'Proposition de partenariat',
];

export interface Seeded {
  s: Sender;
  human: string;
  /** The agent key that wrote the drafts. */
  writer: { apiKey: string; keyId: string };
  supportInboxId: string;
  /** The thread with the PDF and the HTML version, and its message. */
  invoice: { threadId: string; messageId: string; attachmentId: string; subject: string };
  /** The running campaign, and the one not started. */
  campaigns: { running: string; draft: string };
  /** The assistant connected by OAuth: its name, its access token, and the human's session cookie its consent opened. */
  connection: { name: string; token: string; cookie: string };
  audienceId: string;
}

const mail = (
  from: string,
  fromName: string,
  subject: string,
  text: string,
  extra: Partial<InboundMail> = {},
): InboundMail =>
  receivedMail({
    from,
    from_name: fromName,
    subject,
    text,
    ...extra,
  });

/** A call of a tool in process, with a key's rights, as the HTTP front end makes it (the outputs checked against their schemas). */
async function as(svc: TestService, spaceId: string, keyId: string, tool: string, args: Record<string, unknown>) {
  const access = await accessOfKey(svc.rt, spaceId, keyId);
  return (await callTool(svc.rt, access!, tool, args)).output as any;
}

export async function seedWorkspace(
  svc: TestService,
  clock: ManualClock,
  human: string,
  remoteImage: string,
): Promise<Seeded> {
  // Today's lines go back three hours: where the Paris day began less than four hours ago, today
  // starts a few hours later, or they would fall on two days.
  let today = clock.now();
  while (parisDay(today - 4 * 3600_000) !== parisDay(today)) today += 3600_000;
  const s = await sender(svc, { human });
  const adminId = (await svc.call(s.apiKey, 'get_settings')).body.key.id as string;
  const admin = (tool: string, args: Record<string, unknown>) => as(svc, s.spaceId, adminId, tool, args);
  const support = await admin('create_inbox', { username: 'support', domain: s.domain, display_name: 'Support' });
  const writer = await svc.key(s.apiKey, { name: 'rédacteur', permissions: ['send', 'read'] });
  const inboxes = [
    { id: s.inboxId, address: s.address },
    { id: support.id, address: support.address },
  ];

  // The past days' mail: one thread each, a minute apart, ending two days ago.
  clock.set(today - 2 * 86_400_000 - SEED.threads * 60_000);
  const threads: string[] = [];
  for (let i = 0; i < SEED.threads; i++) {
    clock.advance(60_000);
    const [first, last] = [FIRST[i % 10]!, LAST[Math.floor(i / 10) % 10]!];
    const address = `${first
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z]/g, '')}.${last
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z]/g, '')}-${i}@client-exemple.test`;
    const text = `Bonjour,\n\n${TOPICS[i % 5]} pour notre projet n° ${i} : pouvez-vous nous répondre cette semaine ?\n\nCordialement,\n${first} ${last}\n\n> Message précédent\n> cité ici`;
    const received = await receiveInbound(
      svc.rt,
      s.spaceId,
      inboxes[i % 7 === 0 ? 1 : 0]!,
      mail(address, `${first} ${last}`, `${TOPICS[i % 5]} n° ${i}`, text),
    );
    threads.push(received.thread_id);
  }
  clock.advance(60_000);
  const longText = Array.from(
    { length: 60 },
    (_, n) => `Ligne ${n + 1} de la facture détaillée : prestation, quantité, prix.`,
  ).join('\n');
  const html = `<p>Bonjour,</p><p>Voici la <strong>facture de novembre</strong>.</p><p><img src="${remoteImage}" alt="Logo du fournisseur" width="40" height="40"></p>`;
  const invoiceMail = mail(
    'compta@fournisseur-exemple.test',
    'Comptabilité Fournisseur',
    'Facture de novembre',
    `Bonjour,\n${longText}\nMerci de votre règlement.`,
    {
      html,
      attachments: [
        {
          filename: 'facture-novembre.pdf',
          content_type: 'application/pdf',
          content: PDF,
          inline: false,
          content_id: null,
        },
      ],
    },
  );
  const invoice = await receiveInbound(svc.rt, s.spaceId, inboxes[0]!, invoiceMail);
  const invoiceMessage = await admin('get_message', { message_id: invoice.message_id });

  // Read, labelled and archived, by the agent, still in the past.
  const agent = (await accessOfKey(svc.rt, s.spaceId, adminId))!;
  for (let i = 0; i < SEED.threads; i++) {
    const change = {
      labels: i % 8 === 0 ? ['devis'] : null,
      archived: i < SEED.archived ? true : null,
      read: i % 3 === 0 ? true : null,
    };
    if (change.labels || change.archived || change.read) await classifyThread(svc.rt, agent, threads[i]!, change);
  }

  // Today: the agent's drafts in answer to the newest threads, an audience, two campaigns (from the
  // support inbox: the drafts of the other take its share of the day, which a campaign does not exceed).
  clock.set(today - 3 * 3600_000);
  for (let i = 0; i < SEED.drafts; i++) {
    clock.advance(60_000);
    await as(svc, s.spaceId, writer.keyId, 'reply_to_thread', {
      thread_id: threads[SEED.threads - 1 - i],
      requires_approval: true,
      text: `Bonjour,\n\nMerci pour votre message. Nous revenons vers vous avec une proposition chiffrée d’ici jeudi (réponse ${i + 1}).\n\nBien à vous,\nL’équipe ventes`,
    });
  }
  const { audience } = await admin('create_audience', { name: 'Mairies du Rhône' });
  const contacts = Array.from({ length: SEED.contacts }, (_, i) => ({
    email: `contact-${String(i).padStart(2, '0')}@mairie-exemple.test`,
    name: `${FIRST[i % 10]} ${LAST[(i + 3) % 10]}`,
    fields: { commune: `Commune ${i}` },
  }));
  await admin('add_contacts', { audience_id: audience.id, contacts });
  const campaign = async (name: string) =>
    (
      await admin('create_campaign', {
        name,
        audience_id: audience.id,
        inbox_ids: [support.id],
        subject: 'Un devis pour {{commune}}',
        text: 'Bonjour {{name}},\nnous pouvons vous proposer un devis pour {{commune}}.\n{{unsubscribe_url}}',
        follow_ups: [{ after_days: 3, text: 'Je me permets de vous relancer, {{name}}.' }],
      })
    ).campaign.id as string;
  const running = await campaign('Devis mairies');
  await admin('start_campaign', { campaign_id: running });
  for (let step = 0; step < 6; step++) {
    await feedCampaign(svc.rt, s.spaceId, running);
    const next = await deliverDue(svc.rt, transportFor(svc.rt), s.spaceId, support.id);
    if (next === null) break;
    clock.set(Math.max(clock.now() + 1, Math.min(next, today - 600_000)));
  }
  const draft = await campaign('Relance printemps');
  clock.set(today - 600_000);
  const connected = await connectByOAuth(svc, human, { name: 'Assistant de bureau', permissions: ['send', 'read'] });
  await connected.client.close();

  // Exactly 120 lines today: blocks added until the count is there.
  const todayLines = async () => {
    let count = 0;
    let cursor: string | undefined;
    do {
      const page = await admin('list_events', { limit: 200, ...(cursor ? { cursor } : {}) });
      count += page.events.length;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return count;
  };
  for (let missing = SEED.journalToday - (await todayLines()), i = 0; i < missing; i++) {
    await admin('add_suppression', { value: `ancien-${i}@exemple-bloque.test`, reason: 'demande par téléphone' });
  }
  clock.set(today);
  return {
    s,
    human,
    writer,
    supportInboxId: support.id,
    invoice: {
      threadId: invoice.thread_id,
      messageId: invoice.message_id,
      attachmentId: invoiceMessage.attachments[0].id,
      subject: 'Facture de novembre',
    },
    campaigns: { running, draft },
    connection: {
      name: 'Assistant de bureau',
      token: connected.provider.saved!.access_token,
      cookie: connected.cookie,
    },
    audienceId: audience.id,
  };
}
