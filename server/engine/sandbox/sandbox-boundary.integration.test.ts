import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createShadowRunner, type HypothesisResult, type ShadowRunner } from '../shadow';
import { probeSandbox } from './probe';
import { defaultRunLimits, type RunLimits } from './run-limits';
import { sandboxEnv } from './sandbox-env';
import { prepareSandbox } from './sandbox-host';

/**
 * The sandbox as a boundary, attacked from inside a hypothesis as a hostile test file would: one
 * named regression test per attack, each asserting the exact refusal and that nothing outside the
 * hypothesis's shadow changed.
 */

let dataDir: string;
let workspace: string;
let runner: ShadowRunner;

const canaries = {
  database: 'shadowbox.db',
  otherWorktree: 'worktrees/other-task/secret.txt',
  sourceRepo: 'repos/src-1/config',
  sibling: 'worktrees/beside.txt',
} as const;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-boundary-'));
  workspace = path.join(dataDir, 'worktrees', 'task-1');
  await mkdir(workspace, { recursive: true });
  await writeFile(path.join(workspace, 'calc.py'), 'x = 1\n');
  for (const file of Object.values(canaries)) {
    await mkdir(path.dirname(path.join(dataDir, file)), { recursive: true });
    await writeFile(path.join(dataDir, file), 'CANARY\n');
  }
  runner = await createShadowRunner({ dataDir, mode: 'overlay' });
});

async function attack(
  script: string,
  limits: Partial<RunLimits> = {},
  timeoutMs = 30_000,
): Promise<HypothesisResult> {
  const report = await runner.run({
    workspace,
    command: ['/bin/sh', '-c', script],
    hypotheses: [{ name: 'attack', edits: [], delete: [] }],
    timeoutMs,
    limits,
  });
  const [result] = report.hypotheses;
  if (result === undefined) throw new Error('no result');
  return result;
}

async function unchanged(): Promise<void> {
  expect(await readdir(workspace)).toEqual(['calc.py']);
  expect(await readFile(path.join(workspace, 'calc.py'), 'utf8')).toBe('x = 1\n');
  for (const file of Object.values(canaries)) {
    expect(await readFile(path.join(dataDir, file), 'utf8')).toBe('CANARY\n');
  }
}

/** A command that sleeps with `marker` among its arguments, so the host can find it. */
const sleeper = (marker: string): string => `python3 -c "import time; time.sleep(300)" ${marker}`;

/** Host processes whose command line holds `marker`. */
async function processesWith(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(marker)) pids.push(Number(entry));
  }
  return pids;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('the sandbox boundary: no escape', () => {
  it('refuses a remount of the root read-write (mount -o remount,bind,rw /)', async () => {
    const result = await attack(
      'mount -o remount,bind,rw / ; echo "rc=$?"; mount -o remount,bind,rw /usr; echo "rc=$?"; touch /usr/planted; echo "rc=$?"',
    );
    // util-linux refuses before asking the kernel: the run is not root and holds no capability.
    expect(result.outputTail).toContain('mount: /: must be superuser to use mount.');
    expect(result.outputTail).toContain('mount: /usr: must be superuser to use mount.');
    expect(result.outputTail.match(/rc=(\d+)/g)).toEqual(['rc=32', 'rc=32', 'rc=1']);
    await unchanged();
  });

  it('refuses a new mount (mount -t tmpfs)', async () => {
    const result = await attack(
      'mkdir -p "$HOME/m" && mount -t tmpfs evil "$HOME/m"; echo "rc=$?"',
    );
    expect(result.outputTail).toMatch(/mount: .*m: permission denied\.|must be superuser/);
    expect(result.outputTail).toContain('rc=32');
  });

  it('refuses umount /proc, and its /proc shows only its own processes', async () => {
    const result = await attack('umount /proc; echo "rc=$?"; ls /proc | grep -c "^[0-9]"');
    // Not root, so umount(8) looks for a user-mountable /proc in fstab; the run has none.
    expect(result.outputTail).toContain('umount: /proc: umount failed: No such file or directory.');
    expect(result.outputTail).toContain('rc=32');
    const count = Number(result.outputTail.trim().split('\n').at(-1));
    expect(count).toBeLessThan(8);
  });

  it('holds no capability at all, with no_new_privs', async () => {
    const result = await attack(
      'grep -E "^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs)" /proc/self/status',
    );
    expect(result.outputTail).toBe(
      [
        'CapInh:\t0000000000000000',
        'CapPrm:\t0000000000000000',
        'CapEff:\t0000000000000000',
        'CapBnd:\t0000000000000000',
        'CapAmb:\t0000000000000000',
        'NoNewPrivs:\t1',
      ].join('\n'),
    );
  });

  it('cannot create a user namespace to regain capabilities', async () => {
    const result = await attack('unshare -Ur true; echo "rc=$?"');
    expect(result.outputTail).toContain('unshare: unshare failed');
    expect(result.outputTail).toContain('rc=1');
  });
});

describe('the sandbox boundary: root inside is not root outside', () => {
  // Every attack here only opens for writing and writes nothing: should a defence fail, the host's
  // settings are still as they were.
  const openEachForWriting = `import os
writable, refusals = [], set()
for top, dirs, files in os.walk('/proc/sys'):
    for name in files:
        path = os.path.join(top, name)
        try:
            fd = os.open(path, os.O_WRONLY)
        except OSError as error:
            refusals.add(error.strerror)
            continue
        os.close(fd)
        writable.append(path)
print('writable', len(writable), writable[:5])
print('refusals', sorted(refusals))`;

  it('can open no /proc/sys file for writing, kernel/core_pattern included', async () => {
    const result = await attack(`python3 -c "${openEachForWriting}"`);
    expect(result.outputTail).toContain('writable 0 []');
    expect(result.outputTail).toMatch(/refusals \[.*'Read-only file system'/);
    const named = await attack(`python3 -c "import os
for path in ('/proc/sys/kernel/core_pattern', '/proc/sys/kernel/panic'):
    try:
        os.close(os.open(path, os.O_WRONLY))
        print(path, 'opened')
    except OSError as error:
        print(path, error.strerror)"`);
    for (const name of ['core_pattern', 'panic']) {
      expect(named.outputTail).toMatch(
        new RegExp(`/proc/sys/kernel/${name} (Read-only file system|Permission denied)`),
      );
    }
    expect(named.outputTail).not.toContain('opened');
  });

  it('runs as an unprivileged host uid: /proc/<pid>/status seen from the host is not root', async () => {
    const marker = `sbx-uid-${process.pid}-${Date.now()}`;
    const running = attack(`python3 -c "import time; time.sleep(3)" ${marker}`);
    expect(await waitFor(async () => (await processesWith(marker)).length > 0, 10_000)).toBe(true);
    const [pid] = await processesWith(marker);
    const status = await readFile(`/proc/${String(pid)}/status`, 'utf8');
    const uids = /^Uid:\s+(.*)$/m.exec(status)?.[1]?.split(/\s+/).map(Number) ?? [];
    const gids = /^Gid:\s+(.*)$/m.exec(status)?.[1]?.split(/\s+/).map(Number) ?? [];
    expect(uids).toHaveLength(4);
    for (const id of [...uids, ...gids]) expect(id).not.toBe(0);
    if (process.getuid?.() === 0) expect(uids).toEqual([65534, 65534, 65534, 65534]);
    await running;
  });

  it("counts every process of the run in the run's control groups (joined before bubblewrap starts)", async () => {
    const cgroups = runner.sandboxHost?.cgroups ?? null;
    if (cgroups === null) return;
    const marker = `sbx-cgroup-${process.pid}-${Date.now()}`;
    // The sleeper is a grandchild of the command: forked inside the run, as a test's workers are.
    const running = attack(`sh -c 'python3 -c "import time; time.sleep(3)" ${marker}'; true`);
    expect(await waitFor(async () => (await processesWith(marker)).length > 0, 10_000)).toBe(true);
    const [pid] = await processesWith(marker);
    const groups = (await readFile(`/proc/${String(pid)}/cgroup`, 'utf8')).split('\n');
    const controllers = cgroups.version === 2 ? [''] : ['memory', 'pids'];
    for (const controller of controllers) {
      const supported = cgroups.version === 2 || cgroups[controller as 'memory' | 'pids'] !== null;
      if (!supported) continue;
      const line = groups.find((l) => l.split(':')[1]?.split(',').includes(controller));
      expect(line).toMatch(/\/shadowbox\/run-\d+-[^/]+$/);
    }
    await running;
  });

  it('runs under the seccomp filter: Seccomp 2, and denied calls fail with EPERM', async () => {
    const calls = { keyctl: 250, bpf: 321, perf_event_open: 298, userfaultfd: 323, mount: 165 };
    const probe = `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for name, nr in ${JSON.stringify(Object.entries(calls))}:
    rc = libc.syscall(nr, 0, 0, 0, 0, 0)
    print(name, rc, os.strerror(ctypes.get_errno()))`;
    const result = await attack(
      `grep -E "^Seccomp:" /proc/self/status; ${process.arch === 'x64' ? `python3 -c '${probe}'` : ''}`,
    );
    expect(result.outputTail).toContain('Seccomp:\t2');
    if (process.arch === 'x64') {
      for (const name of Object.keys(calls)) {
        expect(result.outputTail).toContain(`${name} -1 Operation not permitted`);
      }
    }
  });

  it('gains nothing from a setuid-root program of the host: its mount is nosuid', async () => {
    const result = await attack(
      'stat -c "%a %u" /usr/bin/mount; grep -E " /usr " /proc/self/mountinfo | grep -o nosuid | head -n 1; mkdir -p "$HOME/m"; /usr/bin/mount -t tmpfs evil "$HOME/m"; echo "rc=$?"; id -u',
    );
    expect(result.outputTail).toMatch(/^4755 /m);
    expect(result.outputTail).toContain('nosuid');
    expect(result.outputTail).toContain('rc=32');
  });

  it('inherits no descriptor of the set-up: not its root, its filter or any directory', async () => {
    const result = await attack('exec 2>&1; ls -l /proc/$$/fd');
    const fds = result.outputTail.split('\n').filter((line) => / \d+ -> /.test(line));
    expect(fds.length).toBeGreaterThanOrEqual(3);
    for (const fd of fds) {
      // A directory of the host, or the filter's file, would be a way out of the new root.
      expect(fd).not.toMatch(/seccomp|rootfs|fstab|sbx-boundary|-> \/(?!dev\/null)[^:]*$/);
    }
  });
});

describe('the sandbox boundary: nothing of the host in view', () => {
  it('cannot read the database, another task worktree, a source repository or a sibling of the workspace', async () => {
    const reads = Object.values(canaries)
      .map((file) => `cat ${path.join(dataDir, file)} 2>&1`)
      .join('; ');
    const result = await attack(`${reads}; ls ${dataDir}; ls ${path.dirname(workspace)}`);
    expect(result.outputTail).not.toContain('CANARY');
    for (const file of Object.values(canaries)) {
      expect(result.outputTail).toContain(
        `cat: ${path.join(dataDir, file)}: No such file or directory`,
      );
    }
    // Only the path down to the workspace exists, empty but for it.
    expect(result.outputTail.trim().split('\n').slice(-2)).toEqual(['worktrees', 'task-1']);
    await unchanged();
  });

  it('cannot read /etc/shadow, /root beyond the toolchains, or /run', async () => {
    const result = await attack(
      'cat /etc/shadow 2>&1; ls -A /root | grep -v -E "^\\.(cargo|rustup|pyenv)$"; ls /run 2>&1; ls /var/run 2>&1; ls /sys 2>&1; echo end',
    );
    expect(result.outputTail).toBe(
      [
        'cat: /etc/shadow: No such file or directory',
        "ls: cannot access '/run': No such file or directory",
        "ls: cannot access '/var/run': No such file or directory",
        "ls: cannot access '/sys': No such file or directory",
        'end',
      ].join('\n'),
    );
  });

  it("cannot read the host's TLS private keys: only /etc/ssl's certificates are shown", async () => {
    const result = await attack('ls /etc/ssl; ls /etc/ssl/private 2>&1');
    expect(result.outputTail).toContain(
      "ls: cannot access '/etc/ssl/private': No such file or directory",
    );
    expect(result.outputTail.split('\n')).not.toContain('private');
  });

  it("cannot connect to a host unix socket (its path is not in the sandbox's root)", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-sock-'));
    const socketPath = path.join(dir, 'host.sock');
    const server = net.createServer((socket) => socket.end('reached\n'));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const result = await attack(
        `python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); print(s.recv(16))" 2>&1 | tail -1`,
      );
      expect(result.outputTail).toBe('FileNotFoundError: [Errno 2] No such file or directory');
    } finally {
      server.close();
    }
  });

  it('cannot connect to a TCP port on the host', async () => {
    const server = net.createServer((socket) => socket.end('reached\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const result = await attack(
        `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), timeout=2); print('reached')" 2>&1 | tail -1`,
      );
      expect(result.outputTail).toBe('ConnectionRefusedError: [Errno 111] Connection refused');
    } finally {
      server.close();
    }
  });
});

describe('the sandbox boundary: resource caps', () => {
  it('kills a run that writes past its disk cap, naming the cap', async () => {
    const result = await attack(
      'for i in 1 2 3 4 5 6 7 8; do head -c 4000000 /dev/zero > "f$i"; done; sleep 20; echo survived',
      { maxDiskMb: 16 },
    );
    expect(result.error).toBe('the run exceeded its disk cap of 16 MB and was killed');
    expect(result.outputTail).not.toContain('survived');
    await unchanged();
  });

  // cargo's home gets a private overlay only where the machine has one (as these machines do).
  const cargoHome = process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo');
  it.skipIf(!existsSync(cargoHome))(
    "counts writes into cargo's home overlay against the disk cap",
    async () => {
      const result = await attack(
        'for i in 1 2 3 4 5 6 7 8; do head -c 4000000 /dev/zero > "$CARGO_HOME/f$i"; done; sleep 20; echo survived',
        { maxDiskMb: 16 },
      );
      expect(result.error).toBe('the run exceeded its disk cap of 16 MB and was killed');
      expect(result.outputTail).not.toContain('survived');
    },
  );

  it('stops a single file at the disk cap (RLIMIT_FSIZE) and names the cap', async () => {
    const result = await attack('head -c 40000000 /dev/zero > big; echo "rc=$?"', { maxDiskMb: 8 });
    expect(result.error).toBe('the run exceeded its disk cap of 8 MB and was killed');
  });

  it('kills a run that allocates past its memory cap, naming the cap', async () => {
    const result = await attack(
      'python3 -c "x = bytearray(512 * 1024 * 1024); print(len(x))"; sleep 20; echo survived',
      { maxMemoryMb: 128 },
    );
    expect(result.error).toBe('the run exceeded its memory cap of 128 MB and was killed');
    expect(result.outputTail).not.toContain('survived');
  });

  it('kills a run that forks past its process cap, naming the cap', async () => {
    const result = await attack(
      'i=0; while [ $i -lt 200 ]; do sleep 30 & i=$((i+1)); done; wait; echo survived',
      { maxPids: 64 },
      20_000,
    );
    expect(result.error).toBe('the run exceeded its process cap of 64 processes and was killed');
    expect(result.timedOut).toBe(false);
    expect(result.outputTail).not.toContain('survived');
  });

  it('gives a run that asks for more than the hard maximum the hard maximum (a task stored before caps were ceilings)', async () => {
    const capped = await createShadowRunner({
      dataDir,
      mode: 'overlay',
      hardMaxLimits: { ...defaultRunLimits, maxPids: 64 },
    });
    const report = await capped.run({
      workspace,
      command: ['/bin/sh', '-c', 'i=0; while [ $i -lt 200 ]; do sleep 30 & i=$((i+1)); done; wait'],
      hypotheses: [{ name: 'greedy', edits: [], delete: [] }],
      timeoutMs: 20_000,
      limits: { maxPids: 999_999 },
    });
    expect(report.hypotheses[0]?.error).toBe(
      'the run exceeded its process cap of 64 processes and was killed',
    );
  });
});

describe('the sandbox boundary: no sandbox outlives its runner', () => {
  it('kills a process that daemonizes itself and outlives its run', async () => {
    const marker = `sbx-outlive-${process.pid}-${Date.now()}`;
    const result = await attack(
      `setsid ${sleeper(marker)} </dev/null >/dev/null 2>&1 & sleep 0.5; kill -0 $! && echo spawned`,
    );
    expect(result.outputTail).toBe('spawned');
    expect(await waitFor(async () => (await processesWith(marker)).length === 0, 2000)).toBe(true);
  });

  it('kills the sandbox when its runner is killed with -9', async () => {
    const marker = `sbx-orphan-${process.pid}-${Date.now()}`;
    const script = path.join(import.meta.dirname, 'test-support', 'run-one-sandbox.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, workspace, marker], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // The runner itself has the marker among its arguments too.
    const sandboxed = async (): Promise<number> =>
      (await processesWith(marker)).filter((pid) => pid !== child.pid).length;
    try {
      expect(await waitFor(async () => (await sandboxed()) === 2, 20_000)).toBe(true);
      child.kill('SIGKILL');
      expect(await waitFor(async () => (await sandboxed()) === 0, 2000)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('the start-up sweep kills the sandboxes of a dead server before it removes their shadows', async () => {
    const sweepData = await mkdtemp(path.join(os.tmpdir(), 'sbx-sweep-'));
    // A pid that is surely dead: a process that has exited.
    const exited = spawn('true');
    await new Promise((resolve) => exited.once('exit', resolve));
    const runDir = path.join(sweepData, 'shadows', `run-${String(exited.pid)}-leftover`);
    const ws = path.join(sweepData, 'worktrees', 't');
    for (const dir of [path.join(runDir, 'upper'), path.join(runDir, 'work'), ws]) {
      await mkdir(dir, { recursive: true });
    }
    await writeFile(path.join(runDir, 'deletes'), '');
    const probe = await probeSandbox(path.join(sweepData, 'shadows'), { hidden: [sweepData] });
    if (probe.mode !== 'overlay') throw new Error(probe.reason);
    const marker = `sbx-stale-${process.pid}-${Date.now()}`;
    const home = path.join(runDir, 'home');
    const sandbox = await prepareSandbox(
      probe,
      {
        kind: 'overlay',
        root: ws,
        upper: path.join(runDir, 'upper'),
        work: path.join(runDir, 'work'),
        deleteList: path.join(runDir, 'deletes'),
        tmpfsUpper: false,
        home,
      },
      ['/bin/sh', '-c', sleeper(marker)],
      { runDir, env: sandboxEnv({ home, tmpdir: home }), limits: defaultRunLimits },
    );
    // A sandbox left in a dead server's run directory (here its parent lives on, so only the
    // sweep can end it): the real command, detached from this process.
    const stale = spawn(sandbox.file, sandbox.args, {
      env: { ...sandbox.env, NODE_ENV: 'test' },
      detached: true,
      stdio: 'ignore',
    });
    stale.unref();
    // An operator's shell in the run directory is not a sandbox: the sweep leaves it alone.
    const bystander = spawn(
      'python3',
      ['-c', 'import time; time.sleep(300)', `${marker}-bystander`],
      {
        cwd: runDir,
        detached: true,
        stdio: 'ignore',
      },
    );
    bystander.unref();
    try {
      expect(await waitFor(async () => (await processesWith(marker)).length === 1, 10_000)).toBe(
        true,
      );
      const swept = await createShadowRunner({ dataDir: sweepData, mode: 'overlay' });
      expect(swept.sweep.removed).toBe(1);
      // SIGKILL went out before the directory was removed; the kernel takes a moment to finish it.
      expect(await waitFor(async () => (await processesWith(marker)).length === 0, 2000)).toBe(
        true,
      );
      expect(await readdir(path.join(sweepData, 'shadows'))).toEqual([]);
      expect(await processesWith(`${marker}-bystander`)).toEqual([bystander.pid]);
    } finally {
      bystander.kill('SIGKILL');
      stale.kill('SIGKILL');
    }
  });
});
