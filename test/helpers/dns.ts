/**
 * The tests' DNS, for domain checks without the network: src/domains/dns-server.ts answering every
 * name from the records a test sets and removes (unknown name NXDOMAIN, known name and other type
 * NODATA); `servfail` makes every answer SERVFAIL.
 */
import { startDnsServer, type DnsServer } from '../../src/domains/dns-server.js';

export type TestDns = DnsServer;

export const startDns = (): Promise<TestDns> => startDnsServer();
