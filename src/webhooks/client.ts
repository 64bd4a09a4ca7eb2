/**
 * The HTTPS client of the webhook workers: one POST, success when a 2xx arrives within the timeout.
 * The host is resolved and checked first (`target`, src/webhooks/address.ts) and the connection goes to
 * that checked address (a pinned `lookup`), while TLS still verifies the certificate against the host
 * name. Keep-alive connections are pooled: a pooled one was opened to an address checked then.
 * No redirect is followed. Trusted authorities: the system's, plus WEBHOOK_CA_FILE when set (tests
 * trust their own receiver that way; TLS verification is never turned off).
 */
import { Agent, request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { Config } from '../config.js';
import { MailboxError } from '../errors.js';
import { bareHost, checkedAddress, WebhookUrlError } from './address.js';

export interface PostResult {
  ok: boolean;
  /** The HTTP status, when one arrived. */
  status: number | null;
  /** Why it failed, in French (journalled at a give-up); null on success. */
  error: string | null;
}

/** A receiver's answer is read this far, then the connection is dropped: only its status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;

const pinnedLookup = (address: string): LookupFunction => {
  const family = isIP(address);
  return (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
};

function describe(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error.message === 'timeout') return `pas de réponse complète en ${timeoutMs / 1000} s`;
  if (/CERT|SSL|TLS/.test(error.code ?? '') || error.code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `certificat refusé (${error.code})`;
  return `connexion impossible (${error.code ?? error.message})`;
}

export class WebhookClient {
  private readonly agent: Agent;

  constructor(private readonly config: Config) {
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: 256,
      // A context built once: given as `ca`, the certificates would be joined into the pool's key at every request.
      ...(config.webhookCa ? { secureContext: createSecureContext({ ca: [...rootCertificates, config.webhookCa] }) } : {}),
    });
  }

  /** The checked address to connect to for the URL's host, or why there is none (in French). */
  async target(url: URL): Promise<{ address: string } | { error: string }> {
    try {
      return { address: await checkedAddress(this.config, url) };
    } catch (error) {
      if (error instanceof WebhookUrlError) return { error: error.message };
      if (error instanceof MailboxError) return { error: 'résolution DNS impossible' };
      throw error;
    }
  }

  /** One POST to `address`, an address `target` checked for this URL. */
  async post(url: URL, address: string, headers: Record<string, string>, body: string): Promise<PostResult> {
    const timeoutMs = this.config.webhookTimeoutMs;
    return new Promise((resolve) => {
      let settled = false;
      const done = (result: PostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = request({
        agent: this.agent,
        host: bareHost(url),
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        lookup: pinnedLookup(address),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Mailbox-Webhooks/1',
        },
      });
      const timer = setTimeout(() => req.destroy(new Error('timeout')), timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => done({ ok: false, status: null, error: describe(error, timeoutMs) }));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const result: PostResult = status >= 200 && status < 300 ? { ok: true, status, error: null } : { ok: false, status, error: `réponse HTTP ${status}` };
        // Done once the answer is read (dropped), so its connection is free for the next delivery; a
        // receiver that keeps talking loses the connection, not its status.
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('end', () => done(result));
        res.on('close', () => done(result));
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
