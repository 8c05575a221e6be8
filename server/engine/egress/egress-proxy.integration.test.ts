import { chmod, mkdtemp, stat } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import ipaddr from 'ipaddr.js';
import { parseEgressAllow } from './allowlist';
import { connectUpstream } from './connect-upstream';
import { Refusal } from './egress-refusal';
import { localAddressProblem } from './local-ranges';
import { startEgressProxy, type EgressProxy, type EgressProxyOptions } from './egress-proxy';

/**
 * The egress proxy against real sockets on loopback: an echo server stands for a registry's TLS
 * port (a tunnel carries bytes, whatever they are), an HTTP server for a local package index.
 * Names resolve through an injected resolver where the test needs them to point somewhere.
 */

let echo: net.Server;
let echoPort: number;
let index: http.Server;
let indexPort: number;
let seen: http.IncomingHttpHeaders[] = [];
const proxies: EgressProxy[] = [];

/**
 * An address of this machine on a network `=local` admits (private or documentation ranges),
 * for the tests of what `=local` forwards to: it refuses loopback. Null on a machine without one.
 */
const lanAddress =
  Object.values(os.networkInterfaces())
    .flat()
    .find(
      (a) =>
        a !== undefined &&
        a.family === 'IPv4' &&
        !a.internal &&
        localAddressProblem(ipaddr.parse(a.address)) === null,
    )?.address ?? null;
let lanEcho: net.Server | undefined;
let lanEchoPort = 0;
let lanIndexPort = 0;

const listen = async (server: net.Server, host = '127.0.0.1'): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as net.AddressInfo).port;
};

beforeAll(async () => {
  echo = net.createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });
  echoPort = await listen(echo);
  index = http.createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, {
      'content-type': 'text/html',
      connection: 'x-hop-response',
      'x-hop-response': 'dropped',
      'x-upstream': 'kept',
    });
    res.end(`<a href="tinypkg-0.1-py3-none-any.whl">${req.url ?? ''}</a>\n`);
  });
  indexPort = await listen(index);
  if (lanAddress !== null) {
    lanEcho = net.createServer((socket) => {
      socket.on('error', () => socket.destroy());
      socket.pipe(socket);
    });
    lanEchoPort = await listen(lanEcho, lanAddress);
    lanIndex = http.createServer((req, res) => {
      seen.push(req.headers);
      res.end('lan index\n');
    });
    lanIndexPort = await listen(lanIndex, lanAddress);
  }
});

let lanIndex: http.Server | undefined;

afterAll(() => {
  echo.close();
  index.close();
  lanEcho?.close();
  lanIndex?.close();
});

afterEach(async () => {
  seen = [];
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function proxy(
  allow: string,
  options: Partial<EgressProxyOptions> = {},
): Promise<EgressProxy> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-egress-'));
  const started = await startEgressProxy({
    socketPath: path.join(dir, 'egress.sock'),
    allowlist: parseEgressAllow(allow, { entries: [] }),
    ...options,
  });
  proxies.push(started);
  return started;
}

interface Answer {
  readonly status: number;
  readonly head: string;
  readonly body: string;
  readonly socket: net.Socket;
}

/** Sends `CONNECT target` and reads the answer's head (and, for a refusal, its body). */
function connect(p: EgressProxy, target: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(p.socketPath);
    let data = '';
    socket.on('error', reject);
    socket.on('data', function onData(chunk: Buffer) {
      data += chunk.toString('latin1');
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = data.slice(0, end);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (data.length < end + 4 + length) return;
      socket.off('data', onData);
      resolve({ status, head, body: data.slice(end + 4, end + 4 + length), socket });
    });
    socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  });
}

async function roundTrip(socket: net.Socket, text: string): Promise<string> {
  const received = new Promise<string>((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
  });
  socket.write(text);
  return received;
}

const closed = (socket: net.Socket): Promise<void> =>
  socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once('close', resolve));

function get(
  p: EgressProxy,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: p.socketPath, path: url, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('egress proxy: CONNECT', () => {
  it('tunnels to an allowlisted IP literal and records it', async () => {
    const p = await proxy(`127.0.0.1:${echoPort}`);
    const answer = await connect(p, `127.0.0.1:${echoPort}`);
    expect(answer.status).toBe(200);
    expect(await roundTrip(answer.socket, 'ping')).toBe('ping');
    answer.socket.destroy();
    expect(p.records()).toEqual([{ host: '127.0.0.1', port: echoPort, allowed: true, count: 1 }]);
  });

  it('refuses a host off the allowlist with 403 and a one-line reason, without resolving it', async () => {
    const asked: string[] = [];
    const p = await proxy('registry.npmjs.org', {
      resolve: (host) => {
        asked.push(host);
        return Promise.resolve(['203.0.113.80']);
      },
    });
    const answer = await connect(p, 'downloads.example.com:443');
    expect(answer.status).toBe(403);
    expect(answer.body).toBe('refused: downloads.example.com:443: not on the egress allowlist\n');
    await connect(p, 'downloads.example.com:443');
    expect(asked).toEqual([]);
    expect(p.records()).toEqual([
      {
        host: 'downloads.example.com',
        port: 443,
        allowed: false,
        reason: 'not on the egress allowlist',
        count: 2,
      },
    ]);
  });

  it('refuses another port of an allowlisted host, naming the allowed ones', async () => {
    const p = await proxy('registry.npmjs.org');
    const answer = await connect(p, 'registry.npmjs.org:22');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain(
      'port 22 is not on the egress allowlist for registry.npmjs.org (allowed: 443)',
    );
  });

  it('refuses an allowlisted name that resolves to loopback (localhost), naming the address', async () => {
    const p = await proxy(`localhost:${echoPort}`);
    const answer = await connect(p, `localhost:${echoPort}`);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatch(
      /^refused: localhost:\d+: localhost resolves to (127\.0\.0\.1|::1), a loopback address, which no egress entry may reach \(=local admits private addresses only\)$/m,
    );
    expect(p.records()[0]).toMatchObject({ host: 'localhost', allowed: false });
  });

  it('refuses allowlisted names resolving to link-local, private or reserved addresses, even one of several', async () => {
    const answers: Record<string, string[]> = {
      'metadata.example': ['169.254.169.254'],
      'corp.example': ['10.0.0.1'],
      'mixed.example': ['93.184.216.34', '127.0.0.1'],
      'mapped.example': ['::ffff:10.0.0.1'],
      'test-net.example': ['203.0.113.80'],
    };
    const p = await proxy(Object.keys(answers).join(','), {
      resolve: (host) => Promise.resolve(answers[host] ?? []),
    });
    const bodies: string[] = [];
    for (const host of Object.keys(answers)) {
      const answer = await connect(p, `${host}:443`);
      expect(answer.status).toBe(403);
      bodies.push(answer.body.trim());
    }
    expect(bodies).toEqual([
      'refused: metadata.example:443: metadata.example resolves to 169.254.169.254, a cloud metadata address, which no egress entry may reach (=local admits private addresses only)',
      'refused: corp.example:443: corp.example resolves to 10.0.0.1, a private address, not a public one (mark the entry =local to allow it)',
      'refused: mixed.example:443: mixed.example resolves to 127.0.0.1, a loopback address, which no egress entry may reach (=local admits private addresses only)',
      'refused: mapped.example:443: mapped.example resolves to 10.0.0.1, a private address, not a public one (mark the entry =local to allow it)',
      'refused: test-net.example:443: test-net.example resolves to 203.0.113.80, a reserved address, not a public one (mark the entry =local to allow it)',
    ]);
  });

  it('refuses a non-public IP literal that the operator did not name', async () => {
    const p = await proxy('registry.npmjs.org');
    for (const target of ['127.0.0.1:443', '169.254.169.254:443', '10.0.0.1:443', '[::1]:443']) {
      const answer = await connect(p, target);
      expect(answer.status).toBe(403);
      expect(answer.body).toContain('not on the egress allowlist');
    }
  });

  it('refuses a =local name resolving to loopback or a metadata address, and never connects', async () => {
    const answers: Record<string, string[]> = {
      'sneaky.example': ['127.0.0.1'],
      'imds.example': ['169.254.169.254'],
      'imds6.example': ['fd00:ec2::254'],
    };
    const p = await proxy(
      Object.keys(answers)
        .map((host) => `${host}:${echoPort}=local`)
        .join(','),
      { resolve: (host) => Promise.resolve(answers[host] ?? []) },
    );
    const bodies: string[] = [];
    for (const host of Object.keys(answers)) {
      const answer = await connect(p, `${host}:${echoPort}`);
      expect(answer.status).toBe(403);
      bodies.push(answer.body.trim());
    }
    expect(bodies).toEqual([
      `refused: sneaky.example:${echoPort}: sneaky.example resolves to 127.0.0.1, a loopback address, which no egress entry may reach (=local admits private addresses only)`,
      `refused: imds.example:${echoPort}: imds.example resolves to 169.254.169.254, a cloud metadata address, which no egress entry may reach (=local admits private addresses only)`,
      `refused: imds6.example:${echoPort}: imds6.example resolves to fd00:ec2::254, a cloud metadata address, which no egress entry may reach (=local admits private addresses only)`,
    ]);
    expect(p.records().every((r) => !r.allowed)).toBe(true);
  });

  it.skipIf(lanAddress === null)(
    'connects to exactly the address it checked: one resolution per tunnel, no second lookup',
    async () => {
      let lookups = 0;
      const p = await proxy(`rebind.example:${lanEchoPort}=local`, {
        // A rebinding resolver: the first answer passes the check, later ones point elsewhere.
        resolve: () => Promise.resolve(lookups++ === 0 ? [lanAddress ?? ''] : ['10.0.0.1']),
      });
      const answer = await connect(p, `rebind.example:${lanEchoPort}`);
      expect(answer.status).toBe(200);
      expect(await roundTrip(answer.socket, 'pinned')).toBe('pinned');
      expect(lookups).toBe(1);
      answer.socket.destroy();
    },
  );

  it('tries each checked address in turn', async () => {
    // Nothing listens on 127.0.0.2: refused there, accepted on the next address. (The check is
    // admitDestination's; this is the connect that follows it.)
    const socket = await connectUpstream(['127.0.0.2', '127.0.0.1'], echoPort, {
      connectTimeoutMs: 5000,
      isClosed: () => false,
      track: () => undefined,
    });
    expect(socket).not.toBeInstanceOf(Refusal);
    if (!(socket instanceof Refusal)) socket.destroy();
  });

  it('answers 502 with the reason when the upstream refuses the connection', async () => {
    // A port nothing listens on any more.
    const server = net.createServer();
    const free = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const p = await proxy(`127.0.0.1:${free}`);
    const answer = await connect(p, `127.0.0.1:${free}`);
    expect(answer.status).toBe(502);
    expect(answer.body).toContain(`connect to 127.0.0.1:${free} failed: ECONNREFUSED`);
  });

  it('answers a malformed CONNECT target with 400', async () => {
    const p = await proxy('registry.npmjs.org');
    for (const target of ['registry.npmjs.org', 'a b:443', 'host:99999', '[zz]:443']) {
      const answer = await connect(p, target);
      expect(answer.status).toBe(400);
      // Node's parser refuses some itself (no port at all), the proxy the rest.
      expect(answer.body).toMatch(/^refused: (CONNECT needs host:port|malformed request)/);
    }
  });

  it('answers 503 beyond its cap of concurrent tunnels, and admits again once one closes', async () => {
    const p = await proxy(`127.0.0.1:${echoPort}`, { maxConnections: 1 });
    const first = await connect(p, `127.0.0.1:${echoPort}`);
    expect(first.status).toBe(200);
    const second = await connect(p, `127.0.0.1:${echoPort}`);
    expect(second.status).toBe(503);
    expect(second.body).toContain('too many connections at once (the cap is 1)');
    first.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const third = await connect(p, `127.0.0.1:${echoPort}`);
    expect(third.status).toBe(200);
    third.socket.destroy();
  });

  it('closes a tunnel idle for longer than its idle timeout', async () => {
    const p = await proxy(`127.0.0.1:${echoPort}`, { idleTimeoutMs: 200 });
    const answer = await connect(p, `127.0.0.1:${echoPort}`);
    const started = Date.now();
    await closed(answer.socket);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('destroys every open tunnel on close, and stops listening', async () => {
    const p = await proxy(`127.0.0.1:${echoPort}`);
    const answer = await connect(p, `127.0.0.1:${echoPort}`);
    expect(answer.status).toBe(200);
    await p.close();
    await closed(answer.socket);
    await expect(connect(p, `127.0.0.1:${echoPort}`)).rejects.toThrow(/ENOENT|ECONNREFUSED/);
  });

  it('keeps serving after clients that vanish mid-request', async () => {
    const p = await proxy(`127.0.0.1:${echoPort},slow.example`, {
      resolve: () => new Promise((resolve) => setTimeout(() => resolve(['93.184.216.34']), 50)),
    });
    for (let i = 0; i < 20; i += 1) {
      const socket = net.connect(p.socketPath);
      socket.on('error', () => undefined);
      socket.write(i % 2 === 0 ? 'CONNECT slow.example:443 HTTP/1.1\r\n\r\n' : 'CONNECT 127.0');
      socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answer = await connect(p, `127.0.0.1:${echoPort}`);
    expect(answer.status).toBe(200);
    answer.socket.destroy();
  });
});

describe('egress proxy: plain HTTP', () => {
  it('forwards an absolute-form request to an IP-literal entry, dropping hop-by-hop headers', async () => {
    const p = await proxy(`127.0.0.1:${indexPort}`);
    const res = await get(p, `http://127.0.0.1:${indexPort}/simple/tinypkg/?x=1`, {
      connection: 'keep-alive, x-hop-request',
      'x-hop-request': 'dropped',
      'proxy-authorization': 'Basic c2VjcmV0',
      'x-kept': 'yes',
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe('<a href="tinypkg-0.1-py3-none-any.whl">/simple/tinypkg/?x=1</a>\n');
    expect(res.headers['x-upstream']).toBe('kept');
    expect(res.headers['x-hop-response']).toBeUndefined();
    const [upstream] = seen;
    expect(upstream?.host).toBe(`127.0.0.1:${indexPort}`);
    expect(upstream?.['x-kept']).toBe('yes');
    expect(upstream?.['x-hop-request']).toBeUndefined();
    expect(upstream?.['proxy-authorization']).toBeUndefined();
    expect(p.records()).toEqual([{ host: '127.0.0.1', port: indexPort, allowed: true, count: 1 }]);
  });

  it.skipIf(lanAddress === null)(
    'forwards to an http:// name entry marked =local that resolves to a private address',
    async () => {
      const p = await proxy(`http://index.lan.example:${lanIndexPort}=local`, {
        resolve: () => Promise.resolve([lanAddress ?? '']),
      });
      const res = await get(p, `http://index.lan.example:${lanIndexPort}/simple/`);
      expect(res.status).toBe(200);
      expect(seen[0]?.host).toBe(`index.lan.example:${lanIndexPort}`);
    },
  );

  it('refuses plain HTTP to a =local name entry that resolves to loopback', async () => {
    const p = await proxy(`http://localhost:${indexPort}=local`);
    const res = await get(p, `http://localhost:${indexPort}/simple/`);
    expect(res.status).toBe(403);
    expect(res.body).toMatch(
      /localhost resolves to (127\.0\.0\.1|::1), a loopback address, which no egress entry may reach/,
    );
    expect(seen).toEqual([]);
  });

  it('refuses plain HTTP to an entry that names neither http:// nor an IP address', async () => {
    const asked: string[] = [];
    const p = await proxy('registry.example:80', {
      resolve: (host) => {
        asked.push(host);
        return Promise.resolve(['93.184.216.34']);
      },
    });
    const res = await get(p, 'http://registry.example/simple/');
    expect(res.status).toBe(403);
    expect(res.body).toBe(
      'refused: registry.example:80: plain HTTP goes only to allowlist entries naming http:// or an IP address; use https\n',
    );
    expect(asked).toEqual([]);
  });

  it('refuses plain HTTP off the allowlist, origin-form requests and credentials in the URL', async () => {
    const p = await proxy(`127.0.0.1:${indexPort}`);
    expect((await get(p, 'http://downloads.example.com/x')).status).toBe(403);
    const origin = await get(p, '/simple/');
    expect(origin.status).toBe(400);
    expect(origin.body).toContain('names an absolute http:// URL');
    const credentials = await get(p, `http://user:pw@127.0.0.1:${indexPort}/`);
    expect(credentials.status).toBe(403);
    expect(credentials.body).toContain('credentials in the URL are not forwarded');
    expect(seen).toEqual([]);
  });
});

describe('egress proxy: its socket', () => {
  it('listens on a socket only its owner can open (0600)', async () => {
    const p = await proxy('registry.npmjs.org');
    expect((await stat(p.socketPath)).mode & 0o777).toBe(0o600);
  });

  it('refuses to listen in a directory others can enter', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-egress-'));
    await chmod(dir, 0o755);
    await expect(
      startEgressProxy({ socketPath: path.join(dir, 'egress.sock'), allowlist: { entries: [] } }),
    ).rejects.toThrow(`startEgressProxy: ${dir} must be private to its owner (mode 0700)`);
  });
});
