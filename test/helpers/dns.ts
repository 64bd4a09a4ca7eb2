/**
 * A tiny authoritative DNS server on a loopback UDP port, for domain checks without the network:
 * the test sets and removes TXT, MX and A records, everything else is NXDOMAIN (unknown name) or NODATA
 * (known name, other type), and `servfail` makes every answer SERVFAIL.
 */
import { createSocket } from 'node:dgram';
import dnsPacket, { type Answer } from 'dns-packet';

type Type = 'TXT' | 'MX' | 'A';

export interface Published {
  type: string;
  name: string;
  value: string;
}

export interface TestDns {
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
  remove(name: string, type?: Type): void;
  /** Publishes records as add_domain returns them (`type`, `name`, `value`). */
  publish(records: Published[]): void;
  close(): Promise<void>;
}

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

const norm = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/** A TXT value as DNS carries it: strings of at most 255 bytes (long DKIM keys span several). */
const chunks = (value: string): string[] => value.match(/.{1,255}/g) ?? [''];

export async function startDns(): Promise<TestDns> {
  const zone = new Map<string, { TXT: string[]; MX: { exchange: string; priority: number }[]; A: string[] }>();
  const at = (name: string) => {
    const key = norm(name);
    if (!zone.has(key)) zone.set(key, { TXT: [], MX: [], A: [] });
    return zone.get(key)!;
  };
  const socket = createSocket('udp4');

  socket.on('message', (message, peer) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    let rcode: number = RCODE.NOERROR;
    const answers: Answer[] = [];
    if (server.servfail || !question) {
      rcode = RCODE.SERVFAIL;
    } else {
      const records = zone.get(norm(question.name));
      if (!records || (!records.TXT.length && !records.MX.length && !records.A.length)) rcode = RCODE.NXDOMAIN;
      else if (question.type === 'TXT') {
        for (const value of records.TXT) answers.push({ type: 'TXT', name: question.name, ttl: 60, data: chunks(value) });
      } else if (question.type === 'MX') {
        for (const mx of records.MX) answers.push({ type: 'MX', name: question.name, ttl: 60, data: { preference: mx.priority, exchange: mx.exchange } });
      } else if (question.type === 'A') {
        for (const ip of records.A) answers.push({ type: 'A', name: question.name, ttl: 60, data: ip });
      }
    }
    const reply = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | rcode,
      questions: query.questions,
      answers,
    });
    socket.send(reply, peer.port, peer.address);
  });

  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const server: TestDns = {
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
