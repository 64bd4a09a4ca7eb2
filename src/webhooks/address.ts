/**
 * Where a webhook may point (decisions.md 5): https only, and never into the service's own network.
 * A URL is checked when declared, and its host resolved and checked again before every delivery, which
 * then connects to the very address checked (src/webhooks/client.ts): a name that starts pointing
 * inside later (DNS rebinding) is refused at delivery.
 * Refused: loopback (allowed by WEBHOOK_ALLOW_LOOPBACK, for tests), private (RFC 1918, fc00::/7),
 * link-local (169.254/16, fe80::/10), shared CGNAT 100.64/10, unspecified, multicast, reserved, the cloud
 * metadata addresses and names, and IPv6 forms embedding a refused IPv4 (mapped, NAT64).
 */
import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.js';
import { createDns } from '../domains/dns.js';

function ranges(v4: string[], v6: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of v4) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv4');
  for (const cidr of v6) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv6');
  return list;
}

const LOOPBACK = ranges(['127.0.0.0/8'], ['::1/128']);

/** In order: the first range an address falls in names the refusal. */
const REFUSED: [string, BlockList][] = [
  ['métadonnées du nuage', ranges(['169.254.169.254/32', '100.100.100.200/32'], ['fd00:ec2::254/128'])],
  ['boucle locale', LOOPBACK],
  ['réseau privé', ranges(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], ['fc00::/7'])],
  ['lien local', ranges(['169.254.0.0/16'], ['fe80::/10'])],
  ['réseau partagé (CGNAT)', ranges(['100.64.0.0/10'], [])],
  ['adresse non spécifiée', ranges(['0.0.0.0/8'], ['::/128'])],
  ['multidiffusion', ranges(['224.0.0.0/4'], ['ff00::/8'])],
  ['adresse réservée', ranges(['240.0.0.0/4'], [])],
];

/** Names that are the metadata services, or private by construction (RFC 6761, RFC 6762, RFC 8375, ICANN `.internal`). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);
const PRIVATE_SUFFIXES = ['.internal', '.local', '.localdomain', '.home.arpa'];

const isLocalhost = (name: string): boolean => name === 'localhost' || name.endsWith('.localhost');

/** The 16 bytes of an IPv6 address, or null. */
function ipv6Bytes(ip: string): number[] | null {
  let text = ip;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  if (all.length !== 8 || all.some((g) => !(g >= 0 && g <= 0xffff))) return null;
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

/** The IPv4 address an IPv6 one carries as mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96), if any. */
function embeddedIpv4(ip: string): string | null {
  const bytes = ipv6Bytes(ip);
  if (!bytes) return null;
  const prefix = bytes.slice(0, 12).join('.');
  if (prefix !== '0.0.0.0.0.0.0.0.0.0.255.255' && prefix !== '0.100.255.155.0.0.0.0.0.0.0.0') return null;
  return bytes.slice(12).join('.');
}

/** Why an IP address is refused as a webhook destination, in French, or null when it is allowed. */
function refusedAddress(config: Config, ip: string): string | null {
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  const inner = family === 'ipv6' ? embeddedIpv4(ip) : null;
  if (inner) return refusedAddress(config, inner);
  if (config.webhookAllowLoopback && LOOPBACK.check(ip, family)) return null;
  const hit = REFUSED.find(([, list]) => list.check(ip, family));
  return hit ? `${hit[0]} : ${ip}` : null;
}

/** A refusal of the URL itself, in French (for `invalid_argument` at declaration). */
export class WebhookUrlError extends Error {}

/** What the host of a URL is: its IP literal without brackets, or a lowercase name without final dot. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');

/** The URL as stored and called: https, no credentials, a host that is not refused by its name or literal. */
export function parseWebhookUrl(config: Config, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WebhookUrlError("ce n'est pas une adresse web complète (https://…).");
  }
  if (url.protocol !== 'https:') throw new WebhookUrlError('seules les adresses https:// sont acceptées.');
  if (url.username || url.password) throw new WebhookUrlError("pas d'identifiants dans l'adresse : vérifiez plutôt la signature de chaque envoi.");
  const host = bareHost(url);
  if (isIP(host)) {
    const refused = refusedAddress(config, host);
    if (refused) throw new WebhookUrlError(`adresse interne refusée (${refused}).`);
  } else if (METADATA_NAMES.has(host) || (!config.webhookAllowLoopback && isLocalhost(host)) || PRIVATE_SUFFIXES.some((s) => host.endsWith(s))) {
    throw new WebhookUrlError(`nom d'hôte interne refusé (${host}).`);
  }
  url.hash = '';
  return url;
}

/**
 * The address to connect to for a URL's host: its IP literal, or the first address its name resolves to,
 * every one of them checked. Throws WebhookUrlError for a refused or unknown name; a failed resolution
 * is `dns_unavailable` (src/domains/dns.ts).
 */
export async function checkedAddress(config: Config, url: URL): Promise<string> {
  const host = bareHost(url);
  if (isIP(host)) {
    const refused = refusedAddress(config, host);
    if (refused) throw new WebhookUrlError(`adresse interne refusée (${refused}).`);
    return host;
  }
  // RFC 6761: localhost names are loopback, never asked of a resolver.
  const addresses = isLocalhost(host) ? ['127.0.0.1'] : await createDns(config).addresses(host);
  if (!addresses.length) throw new WebhookUrlError(`le nom ${host} ne se résout en aucune adresse.`);
  for (const address of addresses) {
    const refused = refusedAddress(config, address);
    if (refused) throw new WebhookUrlError(`${host} pointe vers une adresse interne (${refused}).`);
  }
  return addresses[0]!;
}
