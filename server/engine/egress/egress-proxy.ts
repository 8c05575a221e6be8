import { chmod, stat } from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { EgressAllowlist } from './allowlist';
import { connectUpstream } from './connect-upstream';
import type { EgressContext } from './egress-context';
import { admitDestination, defaultResolve } from './egress-destination';
import { EgressLog, type EgressRecord } from './egress-log';
import { answer, Refusal } from './egress-refusal';
import { forwardHttp } from './forward-http';
import { tunnelConnect } from './tunnel-connect';

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

  const context: EgressContext = {
    idleTimeoutMs: caps.idleTimeoutMs,
    atCap,
    acquire,
    admit: (target, plainHttp) => admitDestination(options.allowlist, resolve, target, plainHttp),
    connect: (addresses, port) =>
      connectUpstream(addresses, port, {
        connectTimeoutMs: caps.connectTimeoutMs,
        isClosed: () => closed,
        track,
      }),
    record,
  };

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
    tunnelConnect(context, req.url ?? '', client, head).catch(() => client.destroy());
  });
  server.on('upgrade', (_req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    answer(socket, 403, 'refused: protocol upgrades are not forwarded');
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    req.on('error', () => res.destroy());
    res.on('error', () => res.destroy());
    forwardHttp(context, req, res).catch(() => res.destroy());
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
