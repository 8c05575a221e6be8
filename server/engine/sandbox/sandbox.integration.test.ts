import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../process/run-process';
import { probeSandbox, type ProbeResult } from './probe';
import { defaultRunLimits, sandboxEnv, sandboxSetupFailure, type SandboxLayout } from './index';
import { prepareSandbox, type SandboxHost } from './sandbox-host';
import { handToSandbox } from './sandbox-identity';

type OverlayLayout = Extract<SandboxLayout, { kind: 'overlay' }>;

let host: SandboxHost;

beforeAll(async () => {
  const probe: ProbeResult = await probeSandbox(path.join(os.tmpdir(), 'sbx-probe'));
  if (probe.mode !== 'overlay')
    throw new Error(`these tests need user namespaces and bubblewrap: ${probe.reason}`);
  host = probe;
});

async function layout(): Promise<{ dir: string; overlay: OverlayLayout; home: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-ns-'));
  const root = path.join(dir, 'ws');
  await mkdir(path.join(root, 'sub'), { recursive: true });
  await writeFile(path.join(root, 'keep.txt'), 'original\n');
  await writeFile(path.join(root, 'sub', 'gone.txt'), 'delete me\n');
  for (const d of ['upper', 'work']) await mkdir(path.join(dir, d));
  await writeFile(path.join(dir, 'deletes'), 'sub/gone.txt\n');
  // As the server does: the workspace and the staged upper belong to the run's identity.
  for (const d of [root, path.join(dir, 'upper')]) await handToSandbox(d, host.identity);
  const overlay: OverlayLayout = {
    kind: 'overlay',
    root,
    upper: path.join(dir, 'upper'),
    work: path.join(dir, 'work'),
    deleteList: path.join(dir, 'deletes'),
    tmpfsUpper: false,
    home: path.join(dir, 'home'),
  };
  return { dir, overlay, home: path.join(dir, 'home') };
}

async function sandboxed(
  l: SandboxLayout,
  home: string,
  script: string,
  timeoutMs = 20_000,
  caches: readonly string[] = [],
  /** The host's environment as the server would have it (toolchain roots come only from there). */
  hostEnv: Record<string, string | undefined> = process.env,
) {
  const runDir = path.dirname(home);
  const sandbox = await prepareSandbox(host, l, ['/bin/sh', '-c', script], {
    runDir,
    env: sandboxEnv({ home, tmpdir: home, extra: { MARK: 'set-by-task' }, host: hostEnv }),
    limits: defaultRunLimits,
    caches,
  });
  try {
    return await runProcess(sandbox.file, sandbox.args, {
      cwd: os.tmpdir(),
      env: sandbox.env,
      timeoutMs,
      killGraceMs: 0,
    });
  } finally {
    await sandbox.cgroup?.destroy();
  }
}

describe('the sandbox', () => {
  it('runs on an overlay of the workspace path: writes and deletions never reach the workspace', async () => {
    const { overlay, home } = await layout();
    const result = await sandboxed(
      overlay,
      home,
      'test ! -e sub/gone.txt && echo changed > keep.txt && rm -rf sub && mkdir target && echo built > target/out && cat keep.txt && pwd',
    );
    expect(result.exitCode).toBe(0);
    expect(result.output.text).toBe(`changed\n${overlay.root}`);
    expect(await readFile(path.join(overlay.root, 'keep.txt'), 'utf8')).toBe('original\n');
    expect(await readFile(path.join(overlay.root, 'sub', 'gone.txt'), 'utf8')).toBe('delete me\n');
    expect((await readdir(overlay.root)).sort()).toEqual(['keep.txt', 'sub']);
  });

  it('applies deletions inside the run’s root: a link in the workspace cannot aim them at the host', async () => {
    const { dir, overlay, home } = await layout();
    const victim = path.join(dir, 'host-dir');
    await mkdir(victim);
    await writeFile(path.join(victim, 'precious'), 'host data\n');
    // As a setup run could leave it: a link in the worktree to a host directory.
    await symlink(victim, path.join(overlay.root, 'link'));
    await writeFile(overlay.deleteList, 'link/precious\n');
    const result = await sandboxed(overlay, home, 'echo ran');
    // Inside the run's root the link leads nowhere: nothing to delete, the run goes on.
    expect(result.output.text).toBe('ran');
    expect(await readFile(path.join(victim, 'precious'), 'utf8')).toBe('host data\n');
  });

  it('runs in fresh PID and network namespaces with a fresh environment', async () => {
    const { overlay, home } = await layout();
    process.env.SHADOWBOX_TEST_SECRET = 'must-not-leak';
    const result = await sandboxed(
      overlay,
      home,
      'echo pid=$$; echo home=$HOME; env | sort; ip -o link show | wc -l',
    );
    delete process.env.SHADOWBOX_TEST_SECRET;
    // bubblewrap is the PID namespace's init; the command is the first process it starts.
    expect(result.output.text).toContain('pid=2\n');
    expect(result.output.text).toContain(`home=${home}\n`);
    expect(result.output.text).toContain('MARK=set-by-task');
    expect(result.output.text).not.toContain('must-not-leak');
    // Only loopback exists in the new network namespace.
    expect(result.output.text.trim().endsWith('\n1')).toBe(true);
  });

  it('cannot reach a server listening on the host loopback', async () => {
    const server = net.createServer((socket) => socket.end('reached\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const { overlay, home } = await layout();
      const probeScript = `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), timeout=2); print('reached')"`;
      const result = await sandboxed(overlay, home, probeScript);
      expect(result.exitCode).not.toBe(0);
      expect(result.output.text).toMatch(/ConnectionRefused|Connection refused/);
    } finally {
      server.close();
    }
  });

  it('gives each run its own loopback, so two runs can listen on 127.0.0.1:8080 at once', async () => {
    const serve = `python3 -c "
import socket, threading
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', 8080)); s.listen()
threading.Thread(target=lambda: s.accept()[0].sendall(b'pong'), daemon=True).start()
c = socket.create_connection(('127.0.0.1', 8080)); print(c.recv(4).decode())
import time; time.sleep(1)
"`;
    const [a, b] = await Promise.all([layout(), layout()]);
    const results = await Promise.all([
      sandboxed(a.overlay, a.home, serve),
      sandboxed(b.overlay, b.home, serve),
    ]);
    for (const result of results) {
      expect(result.output.text).toBe('pong');
      expect(result.exitCode).toBe(0);
    }
  });

  it('kills everything in the namespace on timeout within 2 s', async () => {
    const { overlay, home } = await layout();
    const result = await sandboxed(overlay, home, 'sleep 60 & sleep 60 & wait', 300);
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('reports a failed set-up apart from a failing command', async () => {
    const { overlay, home } = await layout();
    const broken: OverlayLayout = { ...overlay, work: path.join(overlay.work, 'missing') };
    const result = await sandboxed(broken, home, 'true');
    expect(sandboxSetupFailure(result.exitCode, result.output.text)).toMatch(
      /cannot mount the sandbox's file systems/,
    );
    const fresh = await layout();
    const failing = await sandboxed(fresh.overlay, fresh.home, 'exit 125');
    expect(sandboxSetupFailure(failing.exitCode, failing.output.text)).toBeNull();
  });

  it('keeps the upper layer on a tmpfs when asked, leaving nothing on disk', async () => {
    const { overlay, home } = await layout();
    const result = await sandboxed(
      { ...overlay, tmpfsUpper: true },
      home,
      'echo tmp > new.txt && cat new.txt',
    );
    expect(result.output.text).toBe('tmp');
    expect(await readdir(overlay.upper)).toEqual([]);
    expect(await readdir(overlay.root)).not.toContain('new.txt');
  });

  it('keeps the host out of reach: only the overlay, a private HOME and /tmp are writable', async () => {
    const { dir, overlay, home } = await layout();
    const result = await sandboxed(
      overlay,
      home,
      [
        // Lands in the sandbox's private /tmp (the layout lives under the host's), never the host's.
        `touch ${dir}/beside-workspace 2>/dev/null`,
        'touch /usr/planted 2>/dev/null && echo USR-WRITABLE',
        'echo cache > "$HOME/cache" && echo home-ok',
        'echo x > /tmp/x && echo tmp-ok',
        'echo x > /dev/shm/x && echo shm-ok',
        'echo x > /dev/null && head -c 8 /dev/urandom | wc -c',
        'ls /dev | tr "\\n" " "',
      ].join('; '),
    );
    expect(result.output.text).toBe(
      'home-ok\ntmp-ok\nshm-ok\n8\ncore fd full null ptmx pts random shm stderr stdin stdout tty urandom zero ',
    );
    expect(await readdir(dir)).not.toContain('beside-workspace');
    expect(existsSync(path.join(home, 'cache'))).toBe(false);
  });

  it('runs directly in a writable workspace when asked, still isolated', async () => {
    const { overlay, home } = await layout();
    const direct: SandboxLayout = { kind: 'direct', root: overlay.root, home };
    const result = await sandboxed(
      direct,
      home,
      'echo warm > built.txt && touch ../outside 2>/dev/null; echo done',
    );
    expect(result.output.text).toBe('done');
    expect(await readFile(path.join(overlay.root, 'built.txt'), 'utf8')).toBe('warm\n');
    expect(await readdir(path.dirname(overlay.root))).not.toContain('outside');
  });

  it("gives each run a private, writable copy of cargo's home that leaves the host's unchanged", async () => {
    const { dir, overlay, home } = await layout();
    const cargoHome = path.join(dir, 'cargo-home');
    await mkdir(cargoHome);
    await writeFile(path.join(cargoHome, '.package-cache'), '');
    await writeFile(path.join(cargoHome, 'credentials.toml'), '[registry]\ntoken = "cio-secret"\n');
    const result = await sandboxed(
      overlay,
      home,
      'echo lock > "$CARGO_HOME/.package-cache" && touch "$CARGO_HOME/new" && cat "$CARGO_HOME/credentials.toml" && ls -A "$CARGO_HOME"',
      20_000,
      [cargoHome],
      { ...process.env, CARGO_HOME: cargoHome },
    );
    // The registry token reads as empty: the run is uid 0 to the host and could read it otherwise.
    expect(result.output.text).toBe('.package-cache\ncredentials.toml\nnew');
    expect((await readdir(cargoHome)).sort()).toEqual(['.package-cache', 'credentials.toml']);
    expect(await readFile(path.join(cargoHome, '.package-cache'), 'utf8')).toBe('');
  });
});
