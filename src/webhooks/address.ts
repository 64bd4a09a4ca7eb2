/**
 * Where a webhook may point (docs/contract.md, Decision 5): https only, and never into the service's own network.
 * A URL is checked when declared, and its host resolved and checked again before every delivery, which
 * then connects to the very address checked (src/webhooks/client.ts): a name that starts pointing
 * inside later (DNS rebinding) is refused at delivery.
 * Refused: every range of the IANA special-purpose registries that is not globally reachable (table
 * below), multicast, IPv6 outside global unicast, the cloud metadata addresses and names, and the
 * machine's own addresses. IPv6 forms that carry an IPv4 address are judged by that address.
 * Loopback is allowed by WEBHOOK_ALLOW_LOOPBACK, for tests.
 */
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Config } from '../config.js';
import { createDns } from '../domains/dns.js';

function ranges(v4: string[], v6: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of v4) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv4');
  for (const cidr of v6) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv6');
  return list;
}

const LOOPBACK = ranges(['127.0.0.0/8'], ['::1/128']);

/**
 * In order: the first range an address falls in names the refusal. Beside the metadata addresses and
 * multicast, these are the rows "Globally Reachable: False" of the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (https://www.iana.org/assignments/iana-ipv4-special-registry/,
 * https://www.iana.org/assignments/iana-ipv6-special-registry/, as of 2025), plus 192.88.99.0/24
 * (deprecated 6to4 relays, "N/A"). Where such a row holds a few globally reachable entries (anycast
 * service addresses, AMT, AS112, ORCHIDv2 and DET identifiers in 192.0.0.0/24 and 2001::/23), the
 * whole row stays refused: none of them is a web server. The IPv6 forms that carry an IPv4 address
 * (::ffff:0:0/96, ::/96, ::ffff:0:0:0/96, 64:ff9b::/96, 2002::/16, Teredo 2001::/32) never reach this
 * table: they are judged by that address (embeddedIpv4s).
 */
const REFUSED: [string, BlockList][] = [
  ['métadonnées du nuage', ranges(['169.254.169.254/32', '100.100.100.200/32'], ['fd00:ec2::254/128'])],
  ['boucle locale', LOOPBACK],
  ['réseau privé', ranges(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], ['fc00::/7'])],
  ['lien local', ranges(['169.254.0.0/16'], ['fe80::/10'])],
  ['réseau partagé (CGNAT)', ranges(['100.64.0.0/10'], [])],
  ['adresse non spécifiée', ranges(['0.0.0.0/8'], ['::/128'])],
  ['documentation', ranges(['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'], ['2001:db8::/32', '3fff::/20'])],
  ["banc d'essai", ranges(['198.18.0.0/15'], ['2001:2::/48'])],
  ["protocoles de l'IETF", ranges(['192.0.0.0/24'], ['2001::/23'])],
  ['relais 6to4 abandonné', ranges(['192.88.99.0/24'], [])],
  ['traduction IPv4/IPv6 locale', ranges([], ['64:ff9b:1::/48'])],
  ['préfixe à jeter', ranges([], ['100::/64', '100:0:0:1::/64'])],
  ['identifiants SRv6', ranges([], ['5f00::/16'])],
  ['multidiffusion', ranges(['224.0.0.0/4'], ['ff00::/8'])],
  ['adresse réservée', ranges(['240.0.0.0/4'], [])],
];

/** Outside 2000::/3, IPv6 is special or reserved by the IETF (IANA IPv6 Address Space registry). */
const GLOBAL_UNICAST = ranges([], ['2000::/3']);

/** How long the machine's own addresses are trusted before they are read again. */
const OWN_ADDRESSES_MS = 10_000;
let own: { list: BlockList; until: number } | null = null;

/** The addresses of this machine's interfaces (loopback left to the table), read again every 10 s. */
function ownAddresses(): BlockList {
  if (own && performance.now() < own.until) return own.list;
  const list = new BlockList();
  for (const nets of Object.values(networkInterfaces())) {
    for (const net of nets ?? [])
      if (!net.internal) list.addAddress(net.address, net.family === 'IPv6' ? 'ipv6' : 'ipv4');
  }
  own = { list, until: performance.now() + OWN_ADDRESSES_MS };
  return list;
}

/** Names that are the metadata services, or private by construction (RFC 6761, RFC 6762, RFC 8375, ICANN `.internal`). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);
const PRIVATE_SUFFIXES = ['.internal', '.local', '.localdomain', '.home.arpa'];

const isLocalhost = (name: string): boolean => name === 'localhost' || name.endsWith('.localhost');
/** A localhost name or a loopback literal: where the development mode lets plain http:// webhooks go. */
const isLoopbackHost = (host: string): boolean =>
  isLocalhost(host) || (isIP(host) !== 0 && LOOPBACK.check(host, isIP(host) === 6 ? 'ipv6' : 'ipv4'));

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

const startsWith = (bytes: number[], prefix: number[]): boolean => prefix.every((byte, i) => bytes[i] === byte);
const dotted = (bytes: number[]): string => bytes.join('.');
const ZEROS_8 = [0, 0, 0, 0, 0, 0, 0, 0];

/**
 * The IPv4 addresses an IPv6 one carries, by which it is judged (empty when none): IPv4-mapped
 * ::ffff:0:0/96, IPv4-translated ::ffff:0:0:0/96, IPv4-compatible ::/96 (but :: and ::1), NAT64
 * 64:ff9b::/96, 6to4 2002::/16 (bits 16-47), and Teredo 2001::/32 (its server, bits 32-63, and its
 * client, the last 32 bits inverted).
 */
function embeddedIpv4s(ip: string): string[] {
  const bytes = ipv6Bytes(ip);
  if (!bytes) return [];
  const last = bytes.slice(12);
  if (startsWith(bytes, [...ZEROS_8, 0, 0, 0xff, 0xff])) return [dotted(last)];
  if (startsWith(bytes, [...ZEROS_8, 0xff, 0xff, 0, 0])) return [dotted(last)];
  if (startsWith(bytes, [...ZEROS_8, 0, 0, 0, 0]) && !['0.0.0.0', '0.0.0.1'].includes(dotted(last)))
    return [dotted(last)];
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...ZEROS_8])) return [dotted(last)];
  if (startsWith(bytes, [0x20, 0x02])) return [dotted(bytes.slice(2, 6))];
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) return [dotted(bytes.slice(4, 8)), dotted(last.map((b) => b ^ 0xff))];
  return [];
}

/** Why an IP address is refused as a webhook destination, in French, or null when it is allowed. */
function refusedAddress(config: Config, ip: string): string | null {
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  const inner = family === 'ipv6' ? embeddedIpv4s(ip) : [];
  if (inner.length) return inner.map((address) => refusedAddress(config, address)).find(Boolean) ?? null;
  if (config.webhookAllowLoopback && LOOPBACK.check(ip, family)) return null;
  if (ownAddresses().check(ip, family)) return `adresse de cette machine : ${ip}`;
  const hit = REFUSED.find(([, list]) => list.check(ip, family));
  if (hit) return `${hit[0]} : ${ip}`;
  return family === 'ipv6' && !GLOBAL_UNICAST.check(ip, family) ? `adresse réservée : ${ip}` : null;
}

/** A refusal of the URL itself, in French (for `invalid_argument` at declaration). */
export class WebhookUrlError extends Error {}

/** What the host of a URL is: its IP literal without brackets, or a lowercase name without final dot. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');

/** The URL as stored and called: https (http to localhost in the development mode), no credentials, a host that is not refused by its name or literal. */
export function parseWebhookUrl(config: Config, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WebhookUrlError("ce n'est pas une adresse web complète (https://…).");
  }
  const host = bareHost(url);
  if (
    url.protocol !== 'https:' &&
    !(url.protocol === 'http:' && config.webhookAllowHttpLocalhost && isLoopbackHost(host))
  ) {
    throw new WebhookUrlError('seules les adresses https:// sont acceptées.');
  }
  if (url.username || url.password)
    throw new WebhookUrlError("pas d'identifiants dans l'adresse : vérifiez plutôt la signature de chaque envoi.");
  if (isIP(host)) {
    const refused = refusedAddress(config, host);
    if (refused) throw new WebhookUrlError(`adresse interne refusée (${refused}).`);
  } else if (
    METADATA_NAMES.has(host) ||
    (!config.webhookAllowLoopback && isLocalhost(host)) ||
    PRIVATE_SUFFIXES.some((s) => host.endsWith(s))
  ) {
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
