import { createHash } from 'node:crypto';
import { lstat, readFile, rename, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CgroupSupport } from './cgroups';
import type { SandboxPrograms } from './sandbox-command';

/**
 * A passed probe, remembered across processes. Every CLI call used to run the probe's sandbox
 * again (~0.2–0.3 s on these machines, a tenth of a pytest hypothesis). What the probe checks
 * depends only on the running kernel and the sandbox's programs, so a pass is kept under a key made
 * of exactly those: the boot (a new kernel, or the same one rebooted with other settings, has a new
 * boot id), the user, the programs' identities (path, inode, size, times: an upgraded bubblewrap is
 * another key), the control groups found and the text of the check and the sandbox script. A
 * failure is never kept, so a machine that is fixed is found fixed at the next start.
 *
 * The file lives in the data directory, which no sandbox can see. It is trusted only
 * if this user owns it and its directory and nobody else can write either: a planted "pass" could
 * only skip a check, but it should not even do that.
 */
export interface ProbeCacheKeyParts {
  readonly programs: SandboxPrograms;
  readonly cgroups: CgroupSupport | null;
  /**
   * The probe's whole sandbox command and environment, with its scratch directory's name taken
   * out: the set-up script, bubblewrap's options, the root it shows and the check all change it.
   */
  readonly command: readonly string[];
}

/** Passes kept: a server and the CLI on one data directory may run with different PATHs. */
const maxKeys = 8;

const fileName = 'sandbox-probe-pass.json';

async function bootId(): Promise<string> {
  return (await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => '')).trim();
}

async function programIdentity(file: string | null): Promise<string> {
  if (file === null) return 'none';
  const s = await stat(file).catch(() => null);
  return s === null ? `${file}:missing` : `${file}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
}

export async function probeCacheKey(parts: ProbeCacheKeyParts): Promise<string> {
  const { programs } = parts;
  const identities = await Promise.all(
    [programs.unshare, programs.setpriv, programs.bwrap, programs.pivotRoot, programs.prlimit].map(
      programIdentity,
    ),
  );
  const text = JSON.stringify({
    boot: await bootId(),
    kernel: os.release(),
    uid: process.getuid?.() ?? -1,
    programs: identities,
    cgroups: parts.cgroups,
    command: parts.command,
  });
  return createHash('sha256').update(text).digest('hex');
}

/** Whether `file` (and its directory) belong to this user and are writable by nobody else. */
async function ownedAndPrivate(file: string): Promise<boolean> {
  const uid = process.getuid?.();
  if (uid === undefined) return false;
  for (const p of [file, path.dirname(file)]) {
    const s = await lstat(p).catch(() => null);
    if (s === null || s.uid !== uid || (s.mode & 0o022) !== 0) return false;
    if (p === file && !s.isFile()) return false;
  }
  return true;
}

async function passedKeys(dir: string): Promise<string[]> {
  const file = path.join(dir, fileName);
  if (!(await ownedAndPrivate(file))) return [];
  try {
    const { keys } = JSON.parse(await readFile(file, 'utf8')) as { keys?: unknown };
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether a probe with this key passed before (and the record can be trusted). */
export async function probePassedBefore(dir: string, key: string): Promise<boolean> {
  return (await passedKeys(dir)).includes(key);
}

/** Records a pass; written whole (a rename), so a reader never sees half a file. */
export async function recordProbePass(dir: string, key: string): Promise<void> {
  const file = path.join(dir, fileName);
  const keys = [key, ...(await passedKeys(dir)).filter((k) => k !== key)].slice(0, maxKeys);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify({ keys }), { mode: 0o600 });
  await rename(temporary, file);
}
