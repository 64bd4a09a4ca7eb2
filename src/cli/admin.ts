/** `mailbox admin ...`: the operator's commands (docs/contract.md, Decision 8), on the same environment as `serve`. */
import { createPublicKey } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createSpace, setPlan } from '../../actors/space.js';
import { resumeInbox, spaceOfAddress } from '../../actors/inbox.js';
import { recountInbox } from '../../actors/recount.js';
import { indexEveryHuman } from '../../actors/human-index.js';
import { loadConfig } from '../config.js';
import { idPattern } from '../ids.js';
import { isAddress } from '../sending/validate.js';
import { STORAGE_FORMAT } from '../storage/format.js';
import { migrateStore } from '../storage/migrate.js';
import type { CliIo } from './io.js';
import { openRuntime, withRuntime } from './runtime.js';
import { USAGE } from './usage.js';

/**
 * `resume-inbox <inbox_id> --space <space_id>`, or `resume-inbox <address>`: inbox ids are not indexed
 * across spaces, so either the space is given or the address index finds both.
 */
async function resumeInboxCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { space: { type: 'string' } } });
  const [target] = positionals;
  if (!target || positionals.length > 1) {
    io.err(USAGE);
    return 2;
  }
  const byAddress = target.includes('@');
  if (
    !byAddress &&
    (!values.space ||
      !new RegExp(idPattern('space')).test(values.space) ||
      !new RegExp(idPattern('inbox')).test(target))
  ) {
    io.err('give an inbox id (inb_...) with --space <space_id> (spc_...), or the inbox address');
    return 2;
  }
  return withRuntime(loadConfig(io.env), io, async (rt) => {
    const claim = byAddress ? await spaceOfAddress(rt, target) : null;
    if (byAddress && claim?.state !== 'active') {
      io.err(`no live inbox has the address ${target}`);
      return 1;
    }
    const spaceId = claim ? claim.space_id : values.space!;
    const inbox = await resumeInbox(rt, spaceId, claim ? claim.inbox_id : target);
    io.out(JSON.stringify({ space_id: spaceId, inbox_id: inbox.id, address: inbox.address, status: inbox.status }));
    return 0;
  });
}

/**
 * `recount <inbox_id> --space <space_id>`: the inbox's queued and drafts counters and its day
 * reservations recounted from what it holds (actors/recount.ts), before and after as one JSON line.
 */
async function recountCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { space: { type: 'string' } } });
  const [inboxId] = positionals;
  if (
    positionals.length !== 1 ||
    !new RegExp(idPattern('inbox')).test(inboxId!) ||
    !values.space ||
    !new RegExp(idPattern('space')).test(values.space)
  ) {
    io.err('give an inbox id (inb_...) with --space <space_id> (spc_...)');
    return 2;
  }
  return withRuntime(loadConfig(io.env), io, async (rt) => {
    const counts = await recountInbox(rt, values.space!, inboxId!);
    io.out(JSON.stringify({ space_id: values.space, inbox_id: inboxId, ...counts }));
    return 0;
  });
}

/** `set-plan <space_id> <plan>`: the operator's plan, journaled with the service as actor; `none` ends it. */
async function setPlanCommand(args: string[], io: CliIo): Promise<number> {
  const [spaceId, plan] = args;
  const config = loadConfig(io.env);
  if (args.length !== 2 || !new RegExp(idPattern('space')).test(spaceId!)) {
    io.err(USAGE);
    return 2;
  }
  if (plan !== 'none' && !config.plans[plan!]) {
    io.err(`unknown plan "${plan}"; plans: none, ${Object.keys(config.plans).join(', ')}`);
    return 2;
  }
  return withRuntime(config, io, async (rt) => {
    await setPlan(rt, spaceId!, plan!);
    io.out(JSON.stringify({ space_id: spaceId, plan }));
    return 0;
  });
}

/**
 * `service-dkim-records`: the TXT records to publish for SERVICE_DKIM_KEY_FILE, one JSON line per
 * domain it signs for (the common domain, the service's own domain).
 */
function serviceDkimRecordsCommand(io: CliIo): number {
  const config = loadConfig(io.env);
  if (!config.serviceDkim) {
    io.err('SERVICE_DKIM_KEY_FILE is not set: common-domain and service mail leave unsigned');
    return 2;
  }
  const publicKey = createPublicKey(config.serviceDkim.privateKey)
    .export({ type: 'spki', format: 'der' })
    .toString('base64');
  const domains = new Set([config.commonDomain, config.serviceDomains[0] ?? config.mxHost].filter(Boolean));
  for (const domain of domains) {
    io.out(
      JSON.stringify({
        name: `${config.serviceDkim.selector}._domainkey.${domain}`,
        type: 'TXT',
        value: `v=DKIM1; k=rsa; p=${publicKey}`,
      }),
    );
  }
  return 0;
}

/**
 * `migrate`: the store taken to today's format (src/storage/migrate.ts), one JSON line per step run,
 * then one with the formats before and after; nothing to do is one line, `from` equal to `to`.
 */
function migrateCommand(io: CliIo): Promise<number> {
  return withRuntime(
    loadConfig(io.env),
    io,
    async (rt) => {
      const from = await migrateStore(rt, (step) =>
        io.out(JSON.stringify({ step: step.format, name: step.name, rewritten: step.rewritten })),
      );
      io.out(JSON.stringify({ from, to: STORAGE_FORMAT }));
      return 0;
    },
    { asStored: true },
  );
}

export async function admin(args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'service-dkim-records' && rest.length === 0) return serviceDkimRecordsCommand(io);
  if (command === 'resume-inbox') return resumeInboxCommand(rest, io);
  if (command === 'set-plan') return setPlanCommand(rest, io);
  if (command === 'recount') return recountCommand(rest, io);
  if (command === 'index-humans' && rest.length === 0) {
    return withRuntime(loadConfig(io.env), io, async (rt) => {
      io.out(JSON.stringify({ indexed: await indexEveryHuman(rt) }));
      return 0;
    });
  }
  if (command === 'migrate' && rest.length === 0) return migrateCommand(io);
  if (command !== 'create-space') {
    io.err(USAGE);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      human: { type: 'string' },
      name: { type: 'string' },
      plan: { type: 'string' },
      verified: { type: 'boolean', default: false },
      managed: { type: 'boolean', default: false },
    },
  });
  const config = loadConfig(io.env);
  if (!values.human || !isAddress(values.human.trim().toLowerCase())) {
    io.err('--human <email> is required and must be an e-mail address');
    return 2;
  }
  if (values.plan && values.plan !== 'none' && !config.plans[values.plan]) {
    io.err(`unknown plan "${values.plan}"; plans: none, ${Object.keys(config.plans).join(', ')}`);
    return 2;
  }
  const { rt, local } = await openRuntime(config);
  try {
    const created = await createSpace(rt, {
      human: values.human,
      name: values.name,
      plan: values.plan,
      verified: values.verified,
      managed: values.managed,
    });
    io.out(JSON.stringify({ space_id: created.space_id, api_key: created.api_key }));
    return 0;
  } finally {
    rt.redis.disconnect();
    await local?.stop();
  }
}
