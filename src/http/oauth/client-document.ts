/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, MCP authorization
 * 2025-11-25): a client whose client_id is an https URL publishes its metadata there. The document is
 * fetched through the webhook SSRF guard (src/webhooks/address.ts: https only, the host resolved and
 * every address checked, the connection made to the checked address, the certificate checked against
 * the name), bounded in size and time, no redirect followed. Tests reach a loopback server through the
 * guard's own test switches (WEBHOOK_ALLOW_LOOPBACK, WEBHOOK_CA_FILE), as webhook tests do.
 */
import { request } from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { Config } from '../../config.js';
import { MailboxError } from '../../errors.js';
import { bareHost, checkedAddress, parseWebhookUrl, WebhookUrlError } from '../../webhooks/address.js';
import { OAuthRefusal } from './refusal.js';

/** A metadata document is a few hundred bytes: anything past this is no document. */
const MAX_DOCUMENT_BYTES = 5120;
/**
 * The whole fetch, the name's resolution included, is over by then. A deadline, not a socket's idle
 * timeout: a server trickling a byte every few seconds is never idle for long and would hold it for hours.
 */
const DOCUMENT_TIMEOUT_MS = 5000;

/** Whether a client_id names a metadata document: an https URL with a path (the spec's shape). */
export function isDocumentClientId(clientId: string): boolean {
  try {
    const url = new URL(clientId);
    return url.protocol === 'https:' && url.pathname !== '/' && !url.hash && url.href === clientId;
  } catch {
    return false;
  }
}

const unreachable = (why: string): OAuthRefusal =>
  new OAuthRefusal('invalid_client', `Le document de métadonnées du client est inaccessible : ${why}`);

function get(config: Config, url: URL, address: string, signal: AbortSignal): Promise<string> {
  const host = bareHost(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: address,
        port: Number(url.port || 443),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        servername: isIP(host) ? undefined : host,
        headers: { host: url.host, accept: 'application/json' },
        ca: config.webhookCa ? [...rootCertificates, config.webhookCa] : undefined,
        agent: false,
        signal,
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.destroy();
          return reject(unreachable(`réponse HTTP ${res.statusCode}.`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_DOCUMENT_BYTES) return void res.destroy(unreachable(`plus de ${MAX_DOCUMENT_BYTES} octets.`));
          chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', (error) =>
          reject(error instanceof OAuthRefusal ? error : unreachable('connexion interrompue.')),
        );
      },
    );
    req.on('error', (error) => reject(error instanceof OAuthRefusal ? error : unreachable('connexion impossible.')));
    req.end();
  });
}

/** The document at an https client_id, parsed; `invalid_client` when it cannot be had. */
export async function fetchClientDocument(config: Config, clientId: string): Promise<unknown> {
  let text: string;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(unreachable(`pas de réponse en ${DOCUMENT_TIMEOUT_MS / 1000} s.`)),
      DOCUMENT_TIMEOUT_MS,
    );
  });
  const abandon = new AbortController();
  try {
    const url = parseWebhookUrl(config, clientId);
    text = await Promise.race([
      checkedAddress(config, url).then((address) => get(config, url, address, abandon.signal)),
      late,
    ]);
  } catch (error) {
    if (error instanceof WebhookUrlError) throw unreachable(error.message);
    if (error instanceof MailboxError) throw unreachable('résolution DNS impossible.');
    throw error;
  } finally {
    clearTimeout(timer);
    // Past the deadline, the request still under way is destroyed (one not yet made starts aborted).
    abandon.abort();
  }
  try {
    return JSON.parse(text);
  } catch {
    throw unreachable("ce n'est pas du JSON.");
  }
}
