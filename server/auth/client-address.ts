import type { IncomingMessage, Server } from 'node:http';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors/app-error';

/**
 * Who is on the other end of a request. `X-Forwarded-For` is whatever the client wrote unless the
 * peer is a proxy the operator named (SHADOWBOX_TRUSTED_PROXIES): a forged header per request would
 * otherwise give every sign-in attempt a fresh address and escape the per-address limits. With no
 * trusted proxies (the default) the address is the socket's.
 */
export type TrustedProxies = readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[];

/** SHADOWBOX_TRUSTED_PROXIES: comma-separated IPs and CIDR ranges; INVALID_ARGUMENT names a bad one. */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  if (text === undefined) return [];
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      try {
        if (entry.includes('/')) return ipaddr.parseCIDR(entry);
        const address = ipaddr.parse(entry);
        return [address, address.kind() === 'ipv4' ? 32 : 128] as const;
      } catch {
        throw new AppError(
          'INVALID_ARGUMENT',
          `SHADOWBOX_TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IP address or CIDR range`,
          { details: { variable: 'SHADOWBOX_TRUSTED_PROXIES' } },
        );
      }
    });
}

/** An address as one canonical string (IPv4-mapped IPv6 as IPv4); null when it is not one. */
export function canonicalAddress(text: string): string | null {
  const trimmed = text.trim();
  if (!ipaddr.isValid(trimmed)) return null;
  const address = ipaddr.process(trimmed);
  return address.toString();
}

function isTrusted(address: string, proxies: TrustedProxies): boolean {
  const parsed = ipaddr.process(address);
  return proxies.some(
    ([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits),
  );
}

/**
 * The client's address: the socket's, unless the socket is a trusted proxy; then the right-most
 * `X-Forwarded-For` entry that is not itself a trusted proxy (entries left of it are the client's
 * own words). A malformed entry ends the walk at the last address known good.
 */
export function clientAddress(input: {
  readonly socketAddress: string | undefined;
  readonly forwardedFor: string | readonly string[] | undefined;
  readonly trustedProxies: TrustedProxies;
}): string | null {
  const socket = input.socketAddress === undefined ? null : canonicalAddress(input.socketAddress);
  if (socket === null || !isTrusted(socket, input.trustedProxies)) return socket;
  const header: string =
    typeof input.forwardedFor === 'string'
      ? input.forwardedFor
      : (input.forwardedFor ?? []).join(',');
  const hops = header.split(',').map((hop) => hop.trim());
  let client = socket;
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = canonicalAddress(hops[index] ?? '');
    if (hop === null) break;
    client = hop;
    if (!isTrusted(hop, input.trustedProxies)) break;
  }
  return client;
}

/**
 * The key a per-address limit counts under: the address itself for IPv4, its /64 for IPv6 (one
 * machine usually holds a whole /64, so single IPv6 addresses would be free to rotate).
 */
export function addressKey(address: string | null): string {
  if (address === null) return 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}

/** Overwrites the request's X-Forwarded-For with the one client address (or removes it). */
export function settleForwardedFor(request: IncomingMessage, trustedProxies: TrustedProxies): void {
  const address = clientAddress({
    socketAddress: request.socket.remoteAddress,
    forwardedFor: request.headers['x-forwarded-for'],
    trustedProxies,
  });
  if (address === null) delete request.headers['x-forwarded-for'];
  else request.headers['x-forwarded-for'] = address;
  // Nothing here reads it, but nothing should believe a client's own word for it either.
  delete request.headers['x-real-ip'];
}

const installed = Symbol.for('shadowbox.settleForwardedFor');

/**
 * Settles X-Forwarded-For on every request an HTTP server in this process receives, before any
 * handler (Next.js's included) sees it: a route handler gets a Web Request without the socket, so
 * the header is the only carrier of the peer's address. Next.js itself only fills the header when
 * the client sent none, which is why it cannot be left alone.
 */
export function installForwardedForGuard(
  serverClass: { prototype: Server },
  trustedProxies: TrustedProxies,
): void {
  const prototype = serverClass.prototype as Server & { [installed]?: TrustedProxies };
  if (prototype[installed] !== undefined) {
    prototype[installed] = trustedProxies;
    return;
  }
  prototype[installed] = trustedProxies;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the server as `this` below
  const emit = prototype.emit as (
    this: Server,
    event: string | symbol,
    ...args: unknown[]
  ) => boolean;
  prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      settleForwardedFor(args[0] as IncomingMessage, prototype[installed] ?? []);
    }
    return emit.call(this, event, ...args);
  } as Server['emit'];
}
