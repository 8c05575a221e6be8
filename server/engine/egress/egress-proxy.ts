import { lookup } from 'node:dns/promises';
import { chmod, stat } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { findEgressEntry, type EgressAllowEntry, type EgressAllowlist } from './allowlist';
import { EgressLog, type EgressRecord } from './egress-log';

export interface EgressProxyOptions {
  /** Where to listen; its directory must be private to this user (mode 0700 or stricter). */
  readonly socketPath: string;
  readonly allowlist: EgressAllowlist;
  /** To establish the upstream connection, every address tried included. */
  readonly connectTimeoutMs?: number;
  /** A tunnel or request with no bytes either way for this long is closed. */
  readonly idleTimeoutMs?: number;
  /** Tunnels and forwarded requests open at once; one more is answered 503. */
  readonly maxConnections?: number;
  /** Name resolution: every address of a name (tests substitute it). */
  readonly resolve?: (host: string) => Promise<readonly string[]>;
  /** Called on the first refusal of each destination and reason (to show it in the output). */
  readonly onRefused?: (record: EgressRecord) => void;
}

export interface EgressProxy {
  readonly socketPath: string;
  /** Every destination asked for so far, deduplicated (see `EgressRecord`). */
  records(): EgressRecord[];
  /** Stops listening and destroys every open tunnel and request. */
  close(): Promise<void>;
}

const defaults = { connectTimeoutMs: 10_000, idleTimeoutMs: 60_000, maxConnections: 64 };

// Connection-level headers (RFC 9110 §7.6.1), never forwarded, plus those `Connection` names.
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const defaultResolve = async (host: string): Promise<string[]> =>
  (await lookup(host, { all: true, verbatim: false })).map((a) => a.address);

/** A refusal or failure: the status to answer and the reason to log and show. */
class Refusal {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {}
}

const statusText: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Writes a one-line plain-text answer and closes the connection. */
function answer(socket: Duplex, status: number, line: string): void {
  const body = `${line.replace(/[\r\n]/g, ' ')}\n`;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${statusText[status] ?? 'Error'}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** `host:port` of a CONNECT (`[v6]:port` for IPv6); null when malformed. */
function parseAuthority(target: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]{1,253})):(\d{1,5})$/.exec(target);
  if (match === null) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65_535) return null;
  return hostAndPort(match[1] ?? match[2] ?? '', port);
}

/** Normalizes a host as allowlist entries are: lower case, no trailing dot, canonical IPs. */
function hostAndPort(rawHost: string, port: number): { host: string; port: number } | null {
  if (net.isIP(rawHost) !== 0) return { host: ipaddr.parse(rawHost).toString(), port };
  if (rawHost.includes(':')) return null;
  const host = rawHost.toLowerCase().replace(/\.$/, '');
  return host === '' ? null : { host, port };
}

const display = (host: string, port: number): string =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The egress proxy of setup commands: an HTTP proxy on a unix socket that only the sandbox's
 * forwarder reaches. It tunnels `CONNECT host:port` and forwards absolute-form plain HTTP to
 * allowlisted destinations only, resolves names itself and refuses any answer that is not a
 * public address (unless the entry is an IP literal or marked local), and connects to exactly the
 * address it checked: a name cannot be re-resolved to somewhere else between check and connect
 * (DNS rebinding). It never resolves a name that is not on the allowlist, so it is no channel to
 * a resolver either.
 */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const caps = {
    connectTimeoutMs: options.connectTimeoutMs ?? defaults.connectTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? defaults.idleTimeoutMs,
    maxConnections: options.maxConnections ?? defaults.maxConnections,
  };
  for (const [name, value] of Object.entries(caps)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`startEgressProxy: ${name} must be a positive integer, got ${value}`);
    }
  }
  const dir = path.dirname(options.socketPath);
  if (((await stat(dir)).mode & 0o077) !== 0) {
    throw new Error(`startEgressProxy: ${dir} must be private to its owner (mode 0700)`);
  }
  const resolve = options.resolve ?? defaultResolve;
  const log = new EgressLog();
  const sockets = new Set<Duplex>();
  let active = 0;
  let closed = false;

  const track = (socket: Duplex): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    if (closed) socket.destroy();
  };
  const record = (host: string, port: number, outcome: Refusal | null): void => {
    const added = log.add(
      host,
      port,
      outcome === null ? { allowed: true } : { allowed: false, reason: outcome.reason },
    );
    if (added && outcome !== null) {
      options.onRefused?.({ host, port, allowed: false, reason: outcome.reason, count: 1 });
    }
  };

  /** The checked addresses to connect to, or why not: allowlist first, then resolution. */
  async function admit(
    target: { host: string; port: number },
    plainHttp: boolean,
  ): Promise<{ entry: EgressAllowEntry; addresses: string[] } | Refusal> {
    const { host, port } = target;
    const entry = findEgressEntry(options.allowlist, host, port);
    if (entry === undefined) {
      const other = options.allowlist.entries.filter((e) => e.host === host).map((e) => e.port);
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
    // One non-public answer refuses the whole name: the connection must not depend on which
    // address happens to be tried first.
    for (const address of found) {
      if (!ipaddr.isValid(address)) return new Refusal(502, `${host} resolved to '${address}'`);
      const ip = ipaddr.process(address);
      const range = ip.range();
      const reachable = !['unspecified', 'multicast', 'broadcast'].includes(range);
      if (range !== 'unicast' && !(entry.local && reachable)) {
        return new Refusal(
          403,
          `${host} resolves to ${ip.toString()}, a ${range} address, not a public one (mark the entry =local to allow it)`,
        );
      }
      addresses.push(ip.toString());
    }
    return { entry, addresses };
  }

  /** Connects to the first address that answers, within the connect timeout for them all. */
  function connectUpstream(
    addresses: readonly string[],
    port: number,
  ): Promise<net.Socket | Refusal> {
    const deadline = Date.now() + caps.connectTimeoutMs;
    return new Promise((settle) => {
      let failure = '';
      const attempt = (index: number): void => {
        const address = addresses[index];
        const left = deadline - Date.now();
        if (closed) {
          settle(new Refusal(502, 'the proxy is closing'));
          return;
        }
        if (left <= 0) {
          settle(new Refusal(504, `connect timed out after ${caps.connectTimeoutMs} ms`));
          return;
        }
        if (address === undefined) {
          settle(new Refusal(502, failure));
          return;
        }
        const socket = net.connect({ host: address, port });
        track(socket);
        let handled = false;
        const timer = setTimeout(() => socket.destroy(), left);
        const failed = (why: string): void => {
          if (handled) return;
          handled = true;
          clearTimeout(timer);
          socket.destroy();
          failure = `connect to ${display(address, port)} failed: ${why}`;
          attempt(index + 1);
        };
        socket.once('connect', () => {
          handled = true;
          clearTimeout(timer);
          settle(socket);
        });
        socket.on('error', (error: NodeJS.ErrnoException) => failed(error.code ?? error.message));
        socket.once('close', () => failed('closed'));
      };
      attempt(0);
    });
  }

  /** Counts a connection against the cap; null (and an answer) when at the cap. */
  function acquire(): (() => void) | null {
    if (active >= caps.maxConnections) return null;
    active += 1;
    let released = false;
    return () => {
      if (!released) active -= 1;
      released = true;
    };
  }

  const atCap = new Refusal(
    503,
    `too many connections at once (the cap is ${caps.maxConnections})`,
  );

  async function tunnel(target: string, client: Duplex, head: Buffer): Promise<void> {
    const parsed = parseAuthority(target);
    if (parsed === null) {
      answer(client, 400, `refused: CONNECT needs host:port, got '${target.slice(0, 100)}'`);
      return;
    }
    const { host, port } = parsed;
    const release = acquire();
    if (release === null) {
      record(host, port, atCap);
      answer(client, atCap.status, `refused: ${display(host, port)}: ${atCap.reason}`);
      return;
    }
    client.once('close', release);
    const admitted = await admit(parsed, false);
    const upstream =
      admitted instanceof Refusal ? admitted : await connectUpstream(admitted.addresses, port);
    if (upstream instanceof Refusal) {
      record(host, port, upstream);
      answer(client, upstream.status, `refused: ${display(host, port)}: ${upstream.reason}`);
      return;
    }
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    record(host, port, null);
    const closeBoth = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.once('close', closeBoth);
    upstream.once('close', closeBoth);
    for (const socket of [client, upstream]) {
      (socket as net.Socket).setTimeout(caps.idleTimeoutMs, closeBoth);
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refuse = (status: number, line: string): void => {
      req.resume();
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(`${line}\n`);
    };
    const href = req.url ?? '';
    let url: URL | null;
    try {
      url = new URL(href);
    } catch {
      url = null;
    }
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      refuse(400, 'refused: a proxy request names an absolute http:// URL');
      return;
    }
    const target = hostAndPort(
      url.hostname.replace(/^\[(.*)\]$/, '$1'),
      url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port),
    );
    if (target === null) {
      refuse(400, `refused: cannot read the host of '${href.slice(0, 100)}'`);
      return;
    }
    const { host, port } = target;
    const refusal = (r: Refusal): void => {
      record(host, port, r);
      refuse(r.status, `refused: ${display(host, port)}: ${r.reason}`);
    };
    if (url.protocol === 'https:') {
      refusal(new Refusal(400, 'https:// goes through CONNECT'));
      return;
    }
    if (url.username !== '' || url.password !== '') {
      refusal(new Refusal(403, 'credentials in the URL are not forwarded'));
      return;
    }
    const release = acquire();
    if (release === null) {
      refusal(atCap);
      return;
    }
    res.once('close', release);
    const admitted = await admit(target, true);
    const socket =
      admitted instanceof Refusal ? admitted : await connectUpstream(admitted.addresses, port);
    if (socket instanceof Refusal) {
      refusal(socket);
      return;
    }
    if (res.destroyed) {
      socket.destroy();
      return;
    }
    record(host, port, null);
    const named = new Set(
      (req.headers.connection ?? '').split(',').map((h) => h.trim().toLowerCase()),
    );
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || hopByHop.has(name) || named.has(name) || name === 'host') continue;
      headers[name] = value;
    }
    headers.host = url.host;
    // The connection made to the checked address carries the request: nothing resolves again.
    const upstream = http.request({
      createConnection: () => socket,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
    });
    socket.setTimeout(caps.idleTimeoutMs, () => socket.destroy());
    upstream.on('error', () => {
      if (res.headersSent) res.destroy();
      else refuse(502, `refused: ${display(host, port)}: the upstream connection failed`);
    });
    upstream.on('response', (response) => {
      const named = new Set(
        (response.headers.connection ?? '').split(',').map((h) => h.trim().toLowerCase()),
      );
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined || hopByHop.has(name) || named.has(name)) continue;
        out[name] = value;
      }
      res.writeHead(response.statusCode ?? 502, out);
      response.on('error', () => res.destroy());
      response.pipe(res);
    });
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
      socket.destroy();
    });
    req.pipe(upstream);
  }

  // Slow clients must not hold a connection slot forever before they even ask.
  const server = http.createServer({
    headersTimeout: caps.connectTimeoutMs,
    requestTimeout: 0,
    keepAliveTimeout: 5_000,
  });
  server.on('connection', (socket: net.Socket) => {
    track(socket);
    socket.on('error', () => socket.destroy());
    socket.setTimeout(caps.idleTimeoutMs, () => socket.destroy());
  });
  server.on('clientError', (_error, socket: Duplex) => {
    answer(socket, 400, 'refused: malformed request');
  });
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy());
    tunnel(req.url ?? '', client, head).catch(() => client.destroy());
  });
  server.on('upgrade', (_req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    answer(socket, 403, 'refused: protocol upgrades are not forwarded');
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    req.on('error', () => res.destroy());
    res.on('error', () => res.destroy());
    forward(req, res).catch(() => res.destroy());
  });

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen({ path: options.socketPath, exclusive: true }, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  server.on('error', () => undefined);
  try {
    await chmod(options.socketPath, 0o600);
  } catch (error) {
    server.close();
    throw error;
  }

  return {
    socketPath: options.socketPath,
    records: () => log.records(),
    async close() {
      closed = true;
      const stopped = new Promise<void>((done) => server.close(() => done()));
      for (const socket of sockets) socket.destroy();
      await stopped;
    },
  };
}
