import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runProcess } from '../process/run-process';
import { hostWritableMounts } from './host-mounts';
import { sandboxEnv } from './sandbox-env';
import { prepareSandbox, type SandboxHost } from './sandbox-host';

export type ProbeResult =
  | ({ readonly mode: 'overlay' } & SandboxHost)
  | { readonly mode: 'inplace'; readonly reason: string };

export function findIp(hostPath = process.env.PATH ?? ''): string | null {
  const dirs = [...hostPath.split(':').filter(Boolean), '/usr/sbin', '/sbin', '/usr/bin', '/bin'];
  return dirs.map((dir) => path.join(dir, 'ip')).find((candidate) => existsSync(candidate)) ?? null;
}

// Inside the lower layer: a write, a rename and the delete of a lower directory (without
// `userxattr` that fails with EIO, and cargo's renames with EXDEV); then the host must be
// read-only next to the workspace and HOME writable.
const check = [
  'echo changed > file && mv file renamed && rm -r dir && test ! -e dir && mkdir -p target/x',
  '! touch ../host-write 2>/dev/null',
  'touch "$HOME/home-write"',
  'echo ok',
].join(' && ');

/**
 * Checks once that this machine can run shadows: user namespaces, an overlay mounted with
 * `userxattr` inside them, loopback, and a read-only host. Must leave its lower layer untouched.
 */
async function probe(scratchRoot: string): Promise<ProbeResult> {
  const ipPath = findIp();
  if (ipPath === null) return { mode: 'inplace', reason: "iproute2's `ip` was not found" };
  await mkdir(scratchRoot, { recursive: true });
  const dir = await mkdtemp(path.join(scratchRoot, 'probe-'));
  try {
    const lower = path.join(dir, 'lower');
    await mkdir(path.join(lower, 'dir'), { recursive: true });
    await writeFile(path.join(lower, 'file'), 'original');
    await writeFile(path.join(lower, 'dir', 'inner'), 'inner');
    for (const sub of ['upper', 'work', 'home']) await mkdir(path.join(dir, sub));
    await writeFile(path.join(dir, 'deletes'), '');
    const host: SandboxHost = { ipPath, readOnlyMounts: await hostWritableMounts() };
    const home = path.join(dir, 'home');
    const command = await prepareSandbox(
      host,
      {
        kind: 'overlay',
        root: lower,
        upper: path.join(dir, 'upper'),
        work: path.join(dir, 'work'),
        deleteList: path.join(dir, 'deletes'),
        tmpfsUpper: false,
        home,
      },
      ['/bin/sh', '-c', check],
      { runDir: dir },
    );
    const result = await runProcess(command.file, command.args, {
      cwd: dir,
      env: sandboxEnv({ home, tmpdir: home }),
      timeoutMs: 10_000,
      killGraceMs: 0,
    });
    if (result.exitCode !== 0 || result.output.text.trim() !== 'ok') {
      const why =
        result.spawnError ??
        (result.output.text.trim().split('\n').slice(-3).join(' | ') ||
          `exit ${String(result.exitCode)}`);
      return { mode: 'inplace', reason: `sandbox probe failed: ${why}` };
    }
    const untouched =
      (await readFile(path.join(lower, 'file'), 'utf8')) === 'original' &&
      (await readFile(path.join(lower, 'dir', 'inner'), 'utf8')) === 'inner' &&
      (await readdir(lower)).sort().join(',') === 'dir,file' &&
      !existsSync(path.join(dir, 'host-write'));
    return untouched
      ? { mode: 'overlay', ...host }
      : { mode: 'inplace', reason: 'sandbox probe wrote through to the host' };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let cached: Promise<ProbeResult> | undefined;

/** Probes once per process: the answer depends on the kernel and its settings, not on the call. */
export function probeSandbox(scratchRoot: string): Promise<ProbeResult> {
  cached ??= probe(scratchRoot);
  return cached;
}
