/**
 * One successful call per registered tool, for the test that calls every tool through the official
 * MCP SDK client (whose outputSchema validation must pass). A tool without an example fails that test:
 * add one here with the tool.
 */
import { randomBytes } from 'node:crypto';
import { suspendInbox } from '../../actors/inbox.js';
import { receiveInbound } from '../../actors/inbound.js';
import { spaceKeys } from '../../src/redis/keys.js';
import type { TestService } from './service.js';
import { lastCode } from './codes.js';
import { startFakeStripe } from './stripe.js';
import { verifiedDomain } from './domains.js';
import { receivedMail } from './mail.js';

export interface ExampleContext {
  svc: TestService;
  spaceId: string;
  /** A key holding all four permissions. */
  apiKey: string;
}

export type Example = (ctx: ExampleContext) => Promise<Record<string, unknown>>;

/** Examples may run twice in a space (MCP, then HTTP): names that must be unique get a random tail. */
const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

async function succeed(svc: TestService, apiKey: string, tool: string, body: Record<string, unknown>) {
  const res = await svc.call(apiKey, tool, body);
  if (res.status !== 200) throw new Error(`${tool} failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

const newInbox = async ({ svc, apiKey }: ExampleContext): Promise<string> =>
  (await succeed(svc, apiKey, 'create_inbox', { username: unique('exemple'), display_name: 'Exemple' })).id;

/** An inbox of the space, reused when one exists, so the examples fit in a small plan's cap. */
async function someInbox(ctx: ExampleContext, status: 'active' | 'suspended'): Promise<string> {
  const { items } = await succeed(ctx.svc, ctx.apiKey, 'list_inboxes', {});
  const found = (items as { id: string; status: string }[]).find((inbox) => inbox.status === status);
  if (found) return found.id;
  const id = await newInbox(ctx);
  if (status === 'suspended') await suspendInbox(ctx.svc.rt, ctx.spaceId, id, 'exemple de suspension');
  return id;
}

/** A test send from an active inbox of the space to its own address: no plan, domain or 30-day rule in the way. */
async function selfSendArgs(ctx: ExampleContext, extra: Record<string, unknown> = {}) {
  const inboxId = await someInbox(ctx, 'active');
  const { inbox } = await succeed(ctx.svc, ctx.apiKey, 'inbox_status', { inbox_id: inboxId });
  return {
    inbox_id: inboxId,
    to: inbox.address,
    subject: 'Essai',
    text: 'Bonjour,\nun essai. {{unsubscribe_url}}',
    test: true,
    ...extra,
  };
}

const selfSend = async (ctx: ExampleContext, extra: Record<string, unknown> = {}) =>
  (await succeed(ctx.svc, ctx.apiKey, 'send_email', await selfSendArgs(ctx, extra))) as {
    message: { id: string; revision: string };
    thread: { id: string };
  };

const newDomain = async ({ svc, apiKey }: ExampleContext) =>
  (await succeed(svc, apiKey, 'add_domain', { domain: `${unique('exemple')}.test` })) as {
    domain: string;
    records: { type: string; name: string; value: string }[];
  };

export const EXAMPLES: Record<string, Example> = {
  create_key: async () => ({ name: 'exemple', permissions: ['read'], daily_cap: 10 }),
  list_keys: async () => ({}),
  revoke_key: async ({ svc, apiKey }) => ({
    key_id: (await svc.key(apiKey, { name: 'à révoquer' })).keyId,
    confirm: true,
  }),
  get_settings: async () => ({}),
  list_events: async () => ({ limit: 5 }),
  create_inbox: async () => ({ username: unique('exemple'), display_name: 'Agent exemple' }),
  list_inboxes: async () => ({ limit: 5 }),
  inbox_status: async (ctx) => ({ inbox_id: await someInbox(ctx, 'active') }),
  delete_inbox: async (ctx) => ({ inbox_id: await newInbox(ctx), confirm: true }),
  request_inbox_review: async (ctx) => ({ inbox_id: await someInbox(ctx, 'suspended'), message: 'Liste nettoyée.' }),
  add_domain: async () => ({ domain: `${unique('exemple')}.test` }),
  // The service's test DNS server answers for the domain once its records are published there.
  verify_domain: async (ctx) => {
    const { domains } = await succeed(ctx.svc, ctx.apiKey, 'list_domains', {});
    const domain = (domains as Awaited<ReturnType<typeof newDomain>>[])[0] ?? (await newDomain(ctx));
    ctx.svc.dns.publish(domain.records);
    return { domain: domain.domain };
  },
  list_domains: async () => ({}),
  remove_domain: async (ctx) => ({ domain: (await newDomain(ctx)).domain, confirm: true }),
  // A public address (the documentation ranges are refused), never reached: no webhook worker here.
  // The 60 s between declarations is moved aside so the example can run again in the same space.
  set_webhook: async ({ svc, spaceId }) => {
    await svc.rt.redis.hdel(spaceKeys(spaceId).webhook, 'declared_at');
    return { url: 'https://93.184.215.14/webhooks/mailbox' };
  },
  event_feed: async () => ({ limit: 10 }),
  send_email: (ctx) => selfSendArgs(ctx),
  reply_to_thread: async (ctx) => ({ thread_id: (await selfSend(ctx)).thread.id, text: 'Suite de notre échange.' }),
  get_message: async (ctx) => ({ message_id: (await selfSend(ctx)).message.id }),
  get_attachment: async (ctx) => {
    const inboxId = await someInbox(ctx, 'active');
    const { inbox } = await succeed(ctx.svc, ctx.apiKey, 'inbox_status', { inbox_id: inboxId });
    const { message_id } = await receiveInbound(
      ctx.svc.rt,
      ctx.spaceId,
      { id: inboxId, address: inbox.address },
      receivedMail({
        from: 'client@exemple.fr',
        from_name: 'Client',
        subject: 'Commande',
        text: 'Ci-joint.',
        attachments: [
          {
            filename: 'commande.csv',
            content_type: 'text/csv',
            content: Buffer.from('ref;qte\nA;2\n'),
            inline: false,
            content_id: null,
          },
        ],
      }),
    );
    const { attachments } = await succeed(ctx.svc, ctx.apiKey, 'get_message', { message_id });
    return { message_id, attachment_id: attachments[0].id };
  },
  cancel_message: async (ctx) => ({ message_id: (await selfSend(ctx)).message.id }),
  approve_message: async (ctx) => {
    const { message } = await selfSend(ctx, { requires_approval: true });
    return { message_id: message.id, revision: message.revision };
  },
  list_drafts: async () => ({ limit: 5 }),
  update_draft: async (ctx) => ({
    message_id: (await selfSend(ctx, { requires_approval: true })).message.id,
    subject: 'Objet corrigé',
  }),
  list_threads: async () => ({ limit: 5 }),
  get_thread: async (ctx) => ({ thread_id: (await selfSend(ctx)).thread.id }),
  classify_thread: async (ctx) => ({
    thread_id: (await selfSend(ctx)).thread.id,
    labels: ['exemple'],
    archived: false,
    read: true,
  }),
  // Codes are 60 s apart and 5 a day: the record of sends is moved aside so the example can run again.
  attach_human: async ({ svc, spaceId }) => {
    await svc.rt.redis.del(spaceKeys(spaceId).codeSends);
    return { email: 'humain@exemple.fr' };
  },
  verify: async ({ svc, spaceId, apiKey }) => {
    await svc.rt.redis.del(spaceKeys(spaceId).codeSends);
    const email = `${unique('humain')}@exemple.fr`;
    await succeed(svc, apiKey, 'attach_human', { email });
    return { code: await lastCode(svc, email) };
  },
  // A closure confirmed with the code the human received, then cancelled: the space stays open.
  close_space: async ({ svc, spaceId, apiKey }) => {
    await svc.rt.redis.del(spaceKeys(spaceId).codeSends);
    await succeed(svc, apiKey, 'close_space', {});
    const { human_email } = await svc.rt.redis.hgetall(spaceKeys(spaceId).space);
    await succeed(svc, apiKey, 'close_space', { confirmation_code: await lastCode(svc, human_email!) });
    return { cancel: true };
  },
  billing_status: async () => ({}),
  // A stand-in for Stripe's API on a loopback port, and a plan with a price id.
  subscribe: async ({ svc }) => {
    fakeStripe ??= startFakeStripe();
    const config = svc.rt.config;
    config.stripeApiUrl = (await fakeStripe).url;
    config.stripeSecretKey = 'sk_test_exemple';
    config.plans = { ...config.plans, pro: { ...config.plans.pro!, price_id: 'price_exemple_pro' } };
    return { plan: 'pro' };
  },
  list_suppressions: async () => ({ query: 'exemple', limit: 5 }),
  add_suppression: async () => ({ value: 'bloque@exemple.fr', reason: 'demande orale' }),
  remove_suppression: async ({ svc, apiKey }) => {
    const value = `${unique('leve')}@exemple.fr`;
    await succeed(svc, apiKey, 'add_suppression', { value });
    return { value };
  },
  // Receive blocks of made-up domains: no other example sends from them.
  add_filter: async (ctx) => ({
    inbox_id: await someInbox(ctx, 'active'),
    direction: 'receive',
    action: 'block',
    value: '.bloque.test',
  }),
  list_filters: async () => ({}),
  remove_filter: async ({ svc, apiKey }) => {
    const { filter } = await succeed(svc, apiKey, 'add_filter', {
      direction: 'receive',
      action: 'block',
      value: `${unique('retire')}.test`,
    });
    return { filter_id: (filter as { id: string }).id };
  },
  open_workspace: async () => ({ page: 'valider' }),
  navigate_workspace: async ({ svc, apiKey }) => ({
    instance_id: (await succeed(svc, apiKey, 'open_workspace', {})).instance_id,
    page: 'fils',
  }),
  // The barrier answers at once: the example does not wait the 18 seconds of a quiet instance.
  workspace_events: async ({ svc, apiKey }) => ({
    instance_id: (await succeed(svc, apiKey, 'open_workspace', {})).instance_id,
    after_sequence: 0,
    local_navigation: true,
  }),
  // The self-send's subject (selfSendArgs): a match, so the answer has an item to check against the schema.
  search_threads: async (ctx) => {
    await selfSend(ctx);
    return { query: 'essai', limit: 5 };
  },
  create_audience: async () => ({ name: unique('audience') }),
  add_contacts: async (ctx) => ({
    audience_id: await someAudience(ctx),
    contacts: [{ email: `${unique('contact')}@exemple.test`, name: 'Léa Martin', fields: { ville: 'Lyon' } }],
  }),
  remove_contacts: async (ctx) => ({ audience_id: await someAudience(ctx), emails: ['absent@exemple.test'] }),
  list_audiences: async () => ({}),
  list_contacts: async (ctx) => ({ audience_id: await someAudience(ctx), limit: 10 }),
  get_contact: async (ctx) => (await someAudience(ctx), { email: 'lea@exemple.test' }),
  create_campaign: async (ctx) => campaignArgs(ctx),
  start_campaign: async (ctx) => ({ campaign_id: await newCampaign(ctx) }),
  pause_campaign: async (ctx) => {
    const campaignId = await newCampaign(ctx);
    await succeed(ctx.svc, ctx.apiKey, 'start_campaign', { campaign_id: campaignId });
    return { campaign_id: campaignId };
  },
  list_campaigns: async () => ({}),
  campaign_status: async (ctx) => ({ campaign_id: await newCampaign(ctx) }),
  delete_audience: async ({ svc, apiKey }) => ({
    audience_id: (
      (await succeed(svc, apiKey, 'create_audience', { name: unique('jetable') })).audience as { id: string }
    ).id,
    confirm: true,
  }),
};

/** An inbox of a verified domain of the space (a campaign writes first), made once. */
async function campaignInbox(ctx: ExampleContext): Promise<string> {
  const { items } = await succeed(ctx.svc, ctx.apiKey, 'list_inboxes', {});
  const found = (items as { id: string; address: string }[]).find((inbox) => inbox.address.startsWith('campagne@'));
  if (found) return found.id;
  const { domain } = await verifiedDomain(ctx.svc, ctx.apiKey);
  return (
    await succeed(ctx.svc, ctx.apiKey, 'create_inbox', { username: 'campagne', domain, display_name: 'Campagne' })
  ).id;
}

const campaignArgs = async (ctx: ExampleContext) => ({
  name: unique('campagne'),
  audience_id: await someAudience(ctx),
  inbox_ids: [await campaignInbox(ctx)],
  subject: 'Bonjour {{name}}',
  text: 'Bonjour {{name}},\nune proposition. {{unsubscribe_url}}',
  follow_ups: [{ after_days: 3, text: 'Je me permets de vous relancer.' }],
});

const newCampaign = async (ctx: ExampleContext): Promise<string> =>
  ((await succeed(ctx.svc, ctx.apiKey, 'create_campaign', await campaignArgs(ctx))).campaign as { id: string }).id;

/** An audience of the space with a contact, made once. */
async function someAudience({ svc, apiKey }: ExampleContext): Promise<string> {
  const { items } = await succeed(svc, apiKey, 'list_audiences', {});
  const found = (items as { id: string; name: string }[]).find((a) => a.name === 'exemples');
  if (found) return found.id;
  const { audience } = await succeed(svc, apiKey, 'create_audience', { name: 'exemples' });
  const id = (audience as { id: string }).id;
  await succeed(svc, apiKey, 'add_contacts', {
    audience_id: id,
    contacts: [{ email: 'lea@exemple.test', name: 'Léa' }],
  });
  return id;
}

let fakeStripe: ReturnType<typeof startFakeStripe> | undefined;
