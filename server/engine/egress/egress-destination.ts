import { lookup } from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { findEgressEntry, type EgressAllowEntry, type EgressAllowlist } from './allowlist';
import { Refusal } from './egress-refusal';
import { isMetadataAddress, localAddressProblem } from './local-ranges';

export interface Destination {
  readonly host: string;
  readonly port: number;
}

/** An admitted destination: its allowlist entry and the checked addresses to connect to. */
export interface Admitted {
  readonly entry: EgressAllowEntry;
  readonly addresses: string[];
}

export const defaultResolve = async (host: string): Promise<string[]> =>
  (await lookup(host, { all: true, verbatim: false })).map((a) => a.address);

/** `host:port` of a CONNECT (`[v6]:port` for IPv6); null when malformed. */
export function parseAuthority(target: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]{1,253})):(\d{1,5})$/.exec(target);
  if (match === null) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65_535) return null;
  return hostAndPort(match[1] ?? match[2] ?? '', port);
}

/** Normalizes a host as allowlist entries are: lower case, no trailing dot, canonical IPs. */
export function hostAndPort(rawHost: string, port: number): { host: string; port: number } | null {
  if (net.isIP(rawHost) !== 0) return { host: ipaddr.parse(rawHost).toString(), port };
  if (rawHost.includes(':')) return null;
  const host = rawHost.toLowerCase().replace(/\.$/, '');
  return host === '' ? null : { host, port };
}

/**
 * Why a name may not be reached at `ip`; null when it may. A public address always may; a
 * non-public one only for an entry marked `=local`, and then only a private one (see
 * `localAddressProblem`): never loopback, link-local or a metadata service. An IP literal entry
 * is not judged here: the operator named that very address.
 */
function addressProblem(
  host: string,
  ip: ipaddr.IPv4 | ipaddr.IPv6,
  local: boolean,
): string | null {
  const range = ip.range();
  if (range === 'unicast' && !isMetadataAddress(ip)) return null;
  const localProblem = localAddressProblem(ip);
  if (localProblem === null) {
    return local
      ? null
      : `${host} resolves to ${ip.toString()}, a ${range} address, not a public one (mark the entry =local to allow it)`;
  }
  return `${host} resolves to ${ip.toString()}, ${localProblem}, which no egress entry may reach (=local admits private addresses only)`;
}

/** The checked addresses to connect to, or why not: allowlist first, then resolution. */
export async function admitDestination(
  allowlist: EgressAllowlist,
  resolve: (host: string) => Promise<readonly string[]>,
  target: Destination,
  plainHttp: boolean,
): Promise<Admitted | Refusal> {
  const { host, port } = target;
  const entry = findEgressEntry(allowlist, host, port);
  if (entry === undefined) {
    const other = allowlist.entries.filter((e) => e.host === host).map((e) => e.port);
    return new Refusal(
      403,
      other.length > 0
        ? `port ${port} is not on the egress allowlist for ${host} (allowed: ${other.join(', ')})`
        : 'not on the egress allowlist',
    );
  }
  if (plainHttp && !entry.plainHttp) {
    return new Refusal(
      403,
      'plain HTTP goes only to allowlist entries naming http:// or an IP address; use https',
    );
  }
  let found: readonly string[];
  if (entry.ipLiteral) found = [host];
  else {
    try {
      found = await resolve(host);
    } catch (error) {
      return new Refusal(
        502,
        `cannot resolve ${host}: ${(error as { code?: string }).code ?? String(error)}`,
      );
    }
  }
  if (found.length === 0) return new Refusal(502, `cannot resolve ${host}: no address`);
  const addresses: string[] = [];
  // One refused answer refuses the whole name: the connection must not depend on which
  // address happens to be tried first.
  for (const address of found) {
    if (!ipaddr.isValid(address)) return new Refusal(502, `${host} resolved to '${address}'`);
    const ip = ipaddr.process(address);
    const problem = entry.ipLiteral ? null : addressProblem(host, ip, entry.local);
    if (problem !== null) return new Refusal(403, problem);
    addresses.push(ip.toString());
  }
  return { entry, addresses };
}
