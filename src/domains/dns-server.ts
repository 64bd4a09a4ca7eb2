/**
 * A small authoritative DNS server on a loopback UDP port. It answers the TXT, MX and A records it is
 * given for the names of its zones: a name without records is NXDOMAIN, a known name asked for another
 * type NODATA. A question outside its zones goes to its upstream resolvers as it came (the first that
 * answers wins; SERVFAIL when none does), or is NXDOMAIN when it has none. `serve --dev` answers its dev
 * domain with it in front of the usual resolvers (src/cli/dev.ts); the tests answer every name with it
 * (test/helpers/dns.ts). Never started in production.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import dnsPacket, { type Answer } from 'dns-packet';

type RecordType = 'TXT' | 'MX' | 'A';

/** A record as add_domain's domain object lists it (`type`, `name`, `value`). */
export interface Published {
  type: string;
  name: string;
  value: string;
}

export interface DnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  address: string;
  /** Answer SERVFAIL to every query while true. */
  servfail: boolean;
  /** Adds a TXT value at a name (a name may hold several). */
  txt(name: string, value: string): void;
  mx(name: string, exchange: string, priority?: number): void;
  /** An IPv4 address of a host (direct delivery's MX hosts, the implicit MX of a domain). */
  a(name: string, ip: string): void;
  /** Removes the records of a name: one type, or all. */
  remove(name: string, type?: RecordType): void;
  /** Publishes records as add_domain returns them. */
  publish(records: Published[]): void;
  close(): Promise<void>;
}

export interface DnsServerOptions {
  /** The domains answered from the records (each with its subdomains); absent: every name. */
  zones?: string[];
  /** Resolvers asked the other questions, `host[:port]` as DNS_SERVERS spells them; absent: NXDOMAIN. */
  upstream?: string[];
}

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;
/** How long an upstream resolver has to answer before the next one is asked. */
const UPSTREAM_TIMEOUT_MS = 2000;

const norm = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/** A TXT value as DNS carries it: strings of at most 255 bytes (long DKIM keys span several). */
const chunks = (value: string): string[] => value.match(/.{1,255}/g) ?? [''];

/** `1.2.3.4`, `1.2.3.4:53`, `::1`, `[::1]:5353` (DNS_SERVERS and node's getServers() spellings). */
function hostAndPort(server: string): { host: string; port: number } {
  const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(server);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 53) };
  if (isIPv6(server)) return { host: server, port: 53 };
  const [host, port] = server.split(':');
  return { host: host!, port: Number(port ?? 53) };
}

/** Asks each upstream in turn with the query's own bytes; `reply` gets the first answer, or null. */
function forward(query: Buffer, upstream: string[], reply: (answer: Buffer | null) => void): void {
  const [first, ...rest] = upstream;
  if (!first) return reply(null);
  const { host, port } = hostAndPort(first);
  const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
  const next = (answer: Buffer | null) => {
    clearTimeout(timer);
    socket.close();
    if (answer) reply(answer);
    else forward(query, rest, reply);
  };
  const timer = setTimeout(() => next(null), UPSTREAM_TIMEOUT_MS);
  socket.once('message', (answer) => next(answer));
  socket.once('error', () => next(null));
  socket.send(query, port, host);
}

export async function startDnsServer(options: DnsServerOptions = {}): Promise<DnsServer> {
  const zone = new Map<string, { TXT: string[]; MX: { exchange: string; priority: number }[]; A: string[] }>();
  const at = (name: string) => {
    const key = norm(name);
    if (!zone.has(key)) zone.set(key, { TXT: [], MX: [], A: [] });
    return zone.get(key)!;
  };
  const zones = options.zones?.map(norm);
  const answersFor = (name: string): boolean =>
    !zones || zones.some((domain) => name === domain || name.endsWith(`.${domain}`));
  const socket: Socket = createSocket('udp4');

  const respond = (query: dnsPacket.DecodedPacket, peer: RemoteInfo, rcode: number, answers: Answer[] = []) =>
    socket.send(
      dnsPacket.encode({
        type: 'response',
        id: query.id,
        flags: dnsPacket.AUTHORITATIVE_ANSWER | rcode,
        questions: query.questions,
        answers,
      }),
      peer.port,
      peer.address,
    );

  socket.on('message', (message, peer) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (server.servfail || !question) return respond(query, peer, RCODE.SERVFAIL);
    if (!answersFor(norm(question.name))) {
      if (!options.upstream?.length) return respond(query, peer, RCODE.NXDOMAIN);
      return forward(message, options.upstream, (answer) =>
        answer ? socket.send(answer, peer.port, peer.address) : respond(query, peer, RCODE.SERVFAIL),
      );
    }
    const records = zone.get(norm(question.name));
    if (!records || (!records.TXT.length && !records.MX.length && !records.A.length))
      return respond(query, peer, RCODE.NXDOMAIN);
    const answers: Answer[] = [];
    if (question.type === 'TXT') {
      for (const value of records.TXT) answers.push({ type: 'TXT', name: question.name, ttl: 60, data: chunks(value) });
    } else if (question.type === 'MX') {
      for (const mx of records.MX)
        answers.push({
          type: 'MX',
          name: question.name,
          ttl: 60,
          data: { preference: mx.priority, exchange: mx.exchange },
        });
    } else if (question.type === 'A') {
      for (const ip of records.A) answers.push({ type: 'A', name: question.name, ttl: 60, data: ip });
    }
    respond(query, peer, RCODE.NOERROR, answers);
  });

  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const server: DnsServer = {
    address: `127.0.0.1:${socket.address().port}`,
    servfail: false,
    txt: (name, value) => void at(name).TXT.push(value),
    mx: (name, exchange, priority = 10) => void at(name).MX.push({ exchange, priority }),
    a: (name, ip) => void at(name).A.push(ip),
    remove(name, type) {
      const records = zone.get(norm(name));
      if (!records) return;
      if (!type || type === 'TXT') records.TXT = [];
      if (!type || type === 'MX') records.MX = [];
      if (!type || type === 'A') records.A = [];
    },
    publish(records) {
      for (const record of records) {
        if (record.type === 'MX') server.mx(record.name, record.value);
        else server.txt(record.name, record.value);
      }
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  return server;
}
