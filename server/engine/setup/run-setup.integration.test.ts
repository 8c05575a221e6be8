import { lookup } from 'node:dns/promises';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEgressAllow, readToolConfig, type EgressAllowlist } from '../egress';
import { buildWheel, registryEntry, writeNpmFixture } from '../../test-support/egress-fixtures';
import { probeSandbox } from '../sandbox/probe';
import { defaultRunLimits } from '../sandbox/run-limits';
import type { SandboxHost } from '../sandbox/sandbox-host';
import { runSetup, type SetupRequest, type SetupResult } from './run-setup';

/**
 * Setup commands in the real sandbox, on a real worktree, with the egress proxy as their only
 * network: npm's registry (reachable from this machine) through the allowlist, everything else
 * refused, and a package index on the host's loopback that the operator allowlisted by address.
 */

let dataDir: string;
let scratchRoot: string;
let host: SandboxHost;
let registry: { host: string; entry: string };
let toolEnv: Readonly<Record<string, string>>;
let index: http.Server;
let indexPort: number;
let wheel: Buffer;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-setup-'));
  scratchRoot = path.join(dataDir, 'shadows');
  const probe = await probeSandbox(scratchRoot, { hidden: [dataDir] });
  if (probe.mode !== 'overlay') throw new Error(probe.reason);
  host = probe;
  const config = await readToolConfig();
  toolEnv = config.env;
  registry = await registryEntry(config.npmRegistry);
  wheel = await readFile(await buildWheel(dataDir));
  // A PEP 503 "simple" index of one wheel, as an operator's local mirror would serve it.
  index = http.createServer((req, res) => {
    const name = 'tinypkg-0.1-py3-none-any.whl';
    if (req.url === '/simple/tinypkg/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body><a href="/files/${name}">${name}</a></body></html>\n`);
    } else if (req.url === `/files/${name}`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(wheel);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => index.listen(0, '127.0.0.1', resolve));
  indexPort = (index.address() as AddressInfo).port;
});

afterAll(() => {
  index.close();
});

async function worktree(name: string): Promise<string> {
  const dir = path.join(dataDir, 'worktrees', name);
  await mkdir(dir, { recursive: true });
  return dir;
}

async function setup(
  request: Partial<SetupRequest> & Pick<SetupRequest, 'workspace' | 'commands'>,
  allow: string = registry.entry,
  resolve?: (name: string) => Promise<readonly string[]>,
): Promise<SetupResult & { lines: string[] }> {
  const lines: string[] = [];
  const allowlist: EgressAllowlist = parseEgressAllow(allow, { entries: [] });
  const result = await runSetup(
    { limits: defaultRunLimits, onLine: (line) => lines.push(line), ...request },
    {
      host,
      scratchRoot,
      allowlist,
      toolEnv,
      ...(resolve === undefined ? {} : { egress: { resolve } }),
    },
  );
  return { ...result, lines };
}

const curl = (url: string): string =>
  `curl -sS --max-time 10 --proxy "$HTTPS_PROXY" ${url}; echo "curl exit $?"`;

describe('runSetup: egress through the allowlist proxy', () => {
  it('installs a Node project with npm ci through the proxy; a postinstall download off the list is refused and recorded', async () => {
    const workspace = await worktree('node');
    await writeNpmFixture(workspace, {
      postinstall: `${curl('https://downloads.example.com/')} || true`,
    });
    const result = await setup({ workspace, commands: [['npm', 'ci', '--no-audit', '--no-fund']] });
    expect(result.error).toBeNull();
    expect(result.ok).toBe(true);
    expect(result.exitCode).toBe(0);
    const installed = JSON.parse(
      await readFile(path.join(workspace, 'node_modules', 'is-number', 'package.json'), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe('7.0.0');
    expect(result.egress).toContainEqual(
      expect.objectContaining({ host: registry.host, port: 443, allowed: true }),
    );
    expect(result.egress).toContainEqual({
      host: 'downloads.example.com',
      port: 443,
      allowed: false,
      reason: 'not on the egress allowlist',
      count: 1,
    });
    expect(result.outputTail).toContain(
      '[egress] refused: downloads.example.com:443 (not on the egress allowlist)',
    );
    expect(result.outputTail).toContain('CONNECT tunnel failed, response 403');
    expect(result.lines[0]).toBe('$ npm ci --no-audit --no-fund');
  });

  it('cannot connect directly from inside the setup sandbox, by address or by name', async () => {
    const workspace = await worktree('direct');
    const [address] = await lookup(registry.host, { all: true });
    const script = `
      const net = require('node:net');
      const dns = require('node:dns');
      const tryConnect = (port, host) => new Promise((done) => {
        const s = net.connect(port, host);
        s.setTimeout(5000, () => { s.destroy(); done('timeout'); });
        s.on('connect', () => { s.destroy(); done('connected'); });
        s.on('error', (e) => done(e.code));
      });
      (async () => {
        console.log('registry by address:', await tryConnect(443, ${JSON.stringify(address?.address)}));
        console.log('host loopback index:', await tryConnect(${indexPort}, '127.0.0.1'));
        dns.lookup(${JSON.stringify(registry.host)}, (e) => console.log('registry by name:', e ? e.code : 'resolved'));
      })();`;
    const result = await setup({ workspace, commands: [[process.execPath, '-e', script]] });
    expect(result.ok).toBe(true);
    expect(result.outputTail).toContain('registry by address: ENETUNREACH');
    // 127.0.0.1 inside is the sandbox's own loopback: the host's index is not there.
    expect(result.outputTail).toContain('host loopback index: ECONNREFUSED');
    expect(result.outputTail).toMatch(/registry by name: (EAI_AGAIN|ENOTFOUND)/);
    expect(result.egress).toEqual([]);
  });

  it('refuses non-public addresses behind allowlisted names, and reaches an index allowlisted by IP address with plain HTTP (pip in a venv)', async () => {
    const workspace = await worktree('python');
    const answers: Record<string, string[]> = {
      'metadata.example': ['169.254.169.254'],
      'corp.example': ['10.0.0.1'],
    };
    const resolve = async (name: string): Promise<string[]> =>
      answers[name] ?? (await lookup(name, { all: true })).map((a) => a.address);
    const result = await setup(
      {
        workspace,
        env: { PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_CACHE_DIR: '1' },
        commands: [
          [
            'sh',
            '-c',
            [
              curl(`https://localhost:${indexPort}/`),
              curl('https://metadata.example/latest/meta-data/'),
              curl('https://corp.example/'),
            ].join('; '),
          ],
          ['python3', '-m', 'venv', '.venv'],
          [
            '.venv/bin/pip',
            'install',
            '--index-url',
            `http://127.0.0.1:${indexPort}/simple/`,
            'tinypkg',
          ],
          ['.venv/bin/python', '-c', 'import tinypkg; print("tinypkg", tinypkg.VALUE)'],
        ],
      },
      `localhost:${indexPort},metadata.example,corp.example,127.0.0.1:${indexPort}`,
      resolve,
    );
    expect(result.error).toBeNull();
    expect(result.outputTail).toContain('tinypkg 42');
    const refused = result.egress.filter((r) => !r.allowed).map((r) => r.reason);
    expect(refused).toEqual([
      'localhost resolves to 127.0.0.1, a loopback address, which no egress entry may reach (=local admits private addresses only)',
      'metadata.example resolves to 169.254.169.254, a cloud metadata address, which no egress entry may reach (=local admits private addresses only)',
      'corp.example resolves to 10.0.0.1, a private address, not a public one (mark the entry =local to allow it)',
    ]);
    expect(result.egress).toContainEqual(
      expect.objectContaining({ host: '127.0.0.1', port: indexPort, allowed: true }),
    );
    expect(existsSync(path.join(workspace, '.venv', 'lib'))).toBe(true);
  });
});

describe('runSetup: failures', () => {
  it('reports the failing command and its output tail, and runs nothing after it', async () => {
    const workspace = await worktree('failing');
    const result = await setup({
      workspace,
      commands: [
        ['sh', '-c', 'echo configuring; echo "error: no rule to make target" >&2; exit 3'],
        ['touch', 'never'],
      ],
    });
    expect(result.ok).toBe(false);
    expect(result.failedCommand).toEqual([
      'sh',
      '-c',
      'echo configuring; echo "error: no rule to make target" >&2; exit 3',
    ]);
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(result.outputTail).toContain('configuring\nerror: no rule to make target');
    expect(result.error).toBe(
      'setup command `sh -c \'echo configuring; echo "error: no rule to make target" >&2; exit 3\'` exited with code 3',
    );
    expect(existsSync(path.join(workspace, 'never'))).toBe(false);
  });

  it('kills a command at the overall timeout', async () => {
    const workspace = await worktree('timeout');
    const result = await setup({
      workspace,
      timeoutMs: 2000,
      commands: [
        ['sleep', '0.2'],
        ['sh', '-c', 'echo waiting; sleep 60'],
      ],
    });
    expect(result.ok).toBe(false);
    expect(result.timedOut).toBe(true);
    expect(result.failedCommand).toEqual(['sh', '-c', 'echo waiting; sleep 60']);
    expect(result.error).toBe(
      "setup timed out after 2 s (during `sh -c 'echo waiting; sleep 60'`)",
    );
    expect(result.durationMs).toBeLessThan(5000);
    expect(result.outputTail).toContain('waiting');
  });

  it('kills a command that writes past its disk cap into the worktree, naming the cap', async () => {
    const workspace = await worktree('disk');
    const result = await setup({
      workspace,
      limits: { ...defaultRunLimits, maxDiskMb: 16 },
      commands: [
        [
          'sh',
          '-c',
          'for i in 1 2 3 4 5 6 7 8; do head -c 4000000 /dev/zero > "blob$i"; done; sleep 20; echo survived',
        ],
      ],
    });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(
      /^setup command `sh -c .*` exceeded its disk cap of 16 MB and was killed$/,
    );
    // The `$ sh -c …` line names it; the command itself never got that far.
    expect(result.lines).not.toContain('survived');
  });

  it('stops on cancellation and leaves no run directory or proxy socket behind', async () => {
    const workspace = await worktree('cancel');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 700);
    const result = await setup({
      workspace,
      signal: controller.signal,
      commands: [['sleep', '60']],
    });
    expect(result.cancelled).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.error).toBe('setup was cancelled (during `sleep 60`)');
    expect(result.durationMs).toBeLessThan(5000);
    expect(await readdir(scratchRoot)).toEqual([]);
  });
});
