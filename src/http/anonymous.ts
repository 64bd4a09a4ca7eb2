/**
 * Who is calling when no key says it: the client's address, as the budgets of the anonymous endpoints
 * count it (actors/anonymous-budget.ts). The connection's peer, or, behind a proxy the operator trusts
 * (CLIENT_ADDRESS_HEADER), the last entry of the header it writes: the address that proxy saw. IPv6
 * addresses count by their /64, the block one subscriber or one site gets, which an attacker holds whole.
 */
import ipaddr from 'ipaddr.js';
import { spendAnonymousBudget } from '../../actors/anonymous-budget.js';
import type { AnonymousEndpoint } from '../config.js';
import type { Runtime } from '../runtime.js';
import type { IncomingRequest } from './io.js';

/** An address as a budget names it, or null when it is none. */
export function budgetAddress(raw: string): string | null {
  const text = raw.trim();
  if (!ipaddr.isValid(text)) return null;
  // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d: counted as the IPv4 address it is.
  const address = ipaddr.process(text);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/** The client's address of this request, as the budgets count it. */
export function clientOf(rt: Runtime, request: IncomingRequest): string {
  const header = rt.config.anonymous.addressHeader;
  const forwarded = header ? request.headers[header]?.split(',').pop() : undefined;
  return (forwarded !== undefined ? budgetAddress(forwarded) : null) ?? budgetAddress(request.peer) ?? 'unknown';
}

/** Spends this request from the endpoint's budgets; anonymous_rate_limited (429) past them. */
export const spendAnonymous = (rt: Runtime, endpoint: AnonymousEndpoint, request: IncomingRequest): Promise<void> =>
  spendAnonymousBudget(rt, endpoint, clientOf(rt, request));
