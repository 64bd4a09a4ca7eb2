/**
 * The three ways a message leaves, chosen by OUTBOUND (docs/contract.md, Decision 8): `outbox` (the embedded default:
 * one .eml file per message under <MAILBOX_DATA_DIR>/outbox), an SMTP relay (`smtp://` or `smtps://`
 * URL, pooled connections), or `direct` delivery to the recipient domain's MX. Each builds the same
 * bytes (src/delivery/mime.ts) and answers one DeliveryResult per attempt; retrying is the queue's job.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { domainToASCII } from 'node:url';
import nodemailer from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { createDns, type Dns } from '../domains/dns.js';
import type { Runtime } from '../runtime.js';
import { classifySmtpError, isPermanent, type DeliveryCode } from '../mail/delivery-codes.js';
import { composeMessage, envelopeOf } from './mime.js';
import type { DeliveryResult, OutgoingMail, Transport } from './types.js';

/**
 * SMTP client timeouts. Shorter than RFC 5321's minutes-long advice on purpose: a delivery holds a
 * lease in the queue, and a server that slow is retried later rather than waited for. Direct delivery
 * opens no new connection `directMs` after the attempt began, so an attempt lasts at most that plus
 * one session's timeouts.
 */
const DELIVERY_TIMEOUTS = { connectMs: 20_000, greetingMs: 30_000, socketMs: 120_000, directMs: 60_000 };
export type DeliveryTimeouts = typeof DELIVERY_TIMEOUTS;

/** Direct delivery tries at most this many connections per attempt (MX hosts times addresses). */
const MAX_CONNECTIONS = 5;

/** Pooled relay connections: a few, reused for a while, so a busy queue does not reconnect per message. */
const RELAY_POOL = { maxConnections: 5, maxMessages: 100 };

export interface TransportOptions {
  /** Tests shorten them to see a timeout without waiting. */
  timeouts?: Partial<DeliveryTimeouts>;
}

const failure = (code: DeliveryCode, response: string): DeliveryResult => ({
  ok: false,
  permanent: isPermanent(code),
  code,
  response,
});

const smtpTimeouts = (t: DeliveryTimeouts) => ({
  connectionTimeout: t.connectMs,
  greetingTimeout: t.greetingMs,
  socketTimeout: t.socketMs,
});

const dateOf = (rt: Runtime): Date => new Date(rt.clock.now());

/**
 * One message through a nodemailer transporter in one SMTP transaction, its bytes prepared, its envelope
 * the VERP return path and `recipients` (every address, or one domain's in direct delivery). A recipient
 * refused at RCPT while another was taken leaves the message sent; the refusal is in the response.
 */
async function sendRaw(
  transporter: Mail,
  mail: OutgoingMail,
  raw: Buffer,
  recipients: string[],
): Promise<DeliveryResult> {
  try {
    const info = (await transporter.sendMail({ envelope: { from: mail.returnPath, to: recipients }, raw })) as {
      response: string;
      rejected?: string[];
    };
    const refused = info.rejected?.length ? ` (refused: ${info.rejected.join(', ')})` : '';
    return { ok: true, response: `${info.response}${refused}` };
  } catch (error) {
    const { code, response } = classifySmtpError(error);
    return failure(code, response);
  }
}

// ---- outbox ------------------------------------------------------------------------------------------

/** Ids are `msg_` + base32; anything else would be a path of our own making, never a file name. */
const FILE_ID = /^[a-z]{3}_[0-9a-z]{20}$/;

/**
 * One `<message id>.eml` per message, the bytes a relay would get plus the `Return-Path` line a final
 * delivery adds (so the file shows the envelope). Written aside, synced, then renamed: a reader never
 * sees half a file, and a second attempt of the same message replaces the file instead of adding one.
 */
function outboxTransport(rt: Runtime): Transport {
  const dir = join(rt.config.dataDir, 'outbox');
  return {
    kind: 'outbox',
    async send(mail) {
      if (!FILE_ID.test(mail.id)) throw new Error(`message id ${JSON.stringify(mail.id)} is not a file name`);
      const raw = await composeMessage(mail, dateOf(rt));
      const path = join(dir, `${mail.id}.eml`);
      const aside = join(dir, `.${mail.id}.${randomBytes(6).toString('hex')}.tmp`);
      let created = false;
      try {
        await mkdir(dir, { recursive: true });
        const file = await open(aside, 'w', 0o640);
        created = true;
        try {
          await file.writeFile(Buffer.concat([Buffer.from(`Return-Path: <${mail.returnPath}>\r\n`), raw]));
          await file.sync();
        } finally {
          await file.close();
        }
        await rename(aside, path);
      } catch (error) {
        if (created) await rm(aside, { force: true });
        return failure('outbox_failed', (error as Error).message);
      }
      return { ok: true, response: `stored ${mail.id}.eml in the outbox` };
    },
    async close() {},
  };
}

// ---- SMTP relay --------------------------------------------------------------------------------------

/**
 * The relay of OUTBOUND, with nodemailer's URL options (`?tls.rejectUnauthorized=false`,
 * `?requireTLS=true`...). `smtp://` upgrades with STARTTLS when offered (certificate checked), `smtps://`
 * is TLS from the first byte; without a port, 587 and 465.
 */
function relayTransport(rt: Runtime, url: string, timeouts: DeliveryTimeouts): Transport {
  const transporter = nodemailer.createTransport({
    ...parseConnectionUrl(url),
    pool: true,
    ...RELAY_POOL,
    name: rt.config.heloName,
    ...smtpTimeouts(timeouts),
    logger: false,
  });
  return {
    kind: 'smtp',
    send: async (mail) => sendRaw(transporter, mail, await composeMessage(mail, dateOf(rt)), envelopeOf(mail)),
    async close() {
      transporter.close();
    },
  };
}

// ---- direct MX delivery --------------------------------------------------------------------------------

const shuffle = <T>(items: T[]): T[] =>
  items
    .map((item) => ({ item, r: Math.random() }))
    .sort((a, b) => a.r - b.r)
    .map((x) => x.item);

/**
 * The hosts to try, best preference first (equal preferences in random order, RFC 5321 5.1); the domain
 * itself when it has no MX (its A record, the implicit MX); none for a null MX (RFC 7505: no mail here).
 */
async function mailHosts(dns: Dns, domain: string): Promise<string[]> {
  const records = await dns.mx(domain);
  if (records.some((mx) => mx.exchange === '')) return [];
  if (!records.length) return [domain];
  const priorities = [...new Set(records.map((mx) => mx.priority))].sort((a, b) => a - b);
  return priorities.flatMap((p) => shuffle(records.filter((mx) => mx.priority === p).map((mx) => mx.exchange)));
}

/**
 * Delivery to the recipient's own servers. Addresses come from our resolver (DNS_SERVERS), so the
 * connection goes to an IP with the MX name for SNI. STARTTLS when offered, without checking the
 * certificate: MX certificates are rarely valid for their names, and plaintext is the alternative
 * (opportunistic security, RFC 7435; a refused upgrade continues in clear).
 * A temporary failure moves on to the next address or host; a permanent one ends the attempt.
 */
function directTransport(rt: Runtime, timeouts: DeliveryTimeouts): Transport {
  const connect = (ip: string, host: string) =>
    nodemailer.createTransport({
      host: ip,
      port: rt.config.directPort,
      secure: false,
      opportunisticTLS: true,
      tls: { rejectUnauthorized: false, ...(isIP(host) ? {} : { servername: host }) },
      name: rt.config.heloName,
      ...smtpTimeouts(timeouts),
      logger: false,
    });

  /** One domain's recipients to that domain's mail servers: the first host that answers decides. */
  async function toDomain(
    mail: OutgoingMail,
    raw: Buffer,
    domainName: string,
    recipients: string[],
  ): Promise<DeliveryResult> {
    const domain = domainToASCII(domainName);
    if (!domain) return failure('invalid_address', `no domain in ${recipients[0]}`);
    const dns = createDns(rt.config);
    let hosts: string[];
    try {
      hosts = await mailHosts(dns, domain);
    } catch {
      return failure('dns_failed', `the MX lookup of ${domain} failed`);
    }
    if (!hosts.length) return failure('no_mx', `${domain} accepts no mail (null MX)`);

    let last: DeliveryResult | null = null;
    let connections = 0;
    // Real time, not the injected clock: this bounds sockets, not business time.
    const deadline = performance.now() + timeouts.directMs;
    for (const host of hosts) {
      let addresses: string[];
      try {
        addresses = await dns.addresses(host);
      } catch {
        last = failure('dns_failed', `the address lookup of ${host} failed`);
        continue;
      }
      for (const ip of addresses) {
        if (connections++ === MAX_CONNECTIONS || (last && performance.now() > deadline)) return last!;
        const transporter = connect(ip, host);
        const result = await sendRaw(transporter, mail, raw, recipients);
        transporter.close();
        if (result.ok || result.permanent) return result;
        rt.log.debug('direct delivery attempt failed', { message_id: mail.id, host, ip, code: result.code });
        last = result;
      }
    }
    return last ?? failure('no_mx', `no address for the mail servers of ${domain}`);
  }

  return {
    kind: 'direct',
    /**
     * One transaction per recipient domain. The message's outcome is its `to`'s domain's (retries and
     * bounces follow that one); a copy's domain that fails is told in the response, not retried, so a
     * retry never sends the others a second copy (docs/tools.md, "Recipients").
     */
    async send(mail) {
      const raw = await composeMessage(mail, dateOf(rt));
      const byDomain = new Map<string, string[]>();
      for (const address of envelopeOf(mail)) {
        const domain = address.slice(address.lastIndexOf('@') + 1);
        byDomain.set(domain, [...(byDomain.get(domain) ?? []), address]);
      }
      const [main, ...others] = [...byDomain];
      const result = await toDomain(mail, raw, main![0], main![1]);
      if (!result.ok && !result.permanent) return result;
      const copies = await Promise.all(others.map(([domain, recipients]) => toDomain(mail, raw, domain, recipients)));
      const failed = others.filter((_, i) => !copies[i]!.ok).map(([domain], i) => `${domain}: ${copies[i]!.response}`);
      return failed.length
        ? { ...result, response: `${result.response} (copies not delivered: ${failed.join('; ')})` }
        : result;
    },
    async close() {},
  };
}

// ---- choice ------------------------------------------------------------------------------------------

export function createTransport(rt: Runtime, options: TransportOptions = {}): Transport {
  const timeouts = { ...DELIVERY_TIMEOUTS, ...options.timeouts };
  const outbound = rt.config.outbound;
  switch (outbound.kind) {
    case 'outbox':
      return outboxTransport(rt);
    case 'smtp':
      return relayTransport(rt, outbound.url, timeouts);
    case 'direct':
      return directTransport(rt, timeouts);
  }
}

const shared = new WeakMap<Runtime, Transport>();

/** The runtime's transport, made once: the delivery worker and the service's own mails share its pool. */
export function transportFor(rt: Runtime): Transport {
  let transport = shared.get(rt);
  if (!transport) {
    transport = createTransport(rt);
    shared.set(rt, transport);
  }
  return transport;
}

/** Closes the runtime's transport (its pooled relay connections), if one was made. */
export async function closeTransport(rt: Runtime): Promise<void> {
  await shared.get(rt)?.close();
  shared.delete(rt);
}
