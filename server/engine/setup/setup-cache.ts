import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import { relocateOutput } from './relocate-output';
import { bytesOf, copyTree, realEntry, realParents } from './setup-cache-fs';

export { maxRelocatedBytes, relocateOutput } from './relocate-output';
export {
  readManifests,
  setupCacheKey,
  toolchainPrograms,
  toolchainVersions,
  type SetupCacheKeyInput,
} from './setup-cache-key';

export interface CacheEntry {
  readonly key: string;
  /** The entry's directory. */
  readonly path: string;
  /** The workspace the outputs were made in (absolute). */
  readonly workspace: string;
  /** Workspace-relative outputs the entry holds. */
  readonly outputs: readonly string[];
  readonly bytes: number;
  readonly createdAt: string;
}

const keyPattern = /^[0-9a-f]{64}$/;
const metaSchema = z.object({
  version: z.literal(1),
  key: z.string().regex(keyPattern),
  // Relocation rewrites this path wherever it occurs: never `/` or a path spelled two ways.
  workspace: z.string().refine((p) => isAbsolute(p) && posix.normalize(p) === p && p !== '/'),
  outputs: z.array(z.string()),
  bytes: z.number().int().nonnegative(),
  createdAt: z.string(),
});

function assertKey(key: string): void {
  if (!keyPattern.test(key)) throw new AppError('INVALID_ARGUMENT', 'not a setup cache key');
}

const isOutputPath = (path: string): boolean =>
  path !== '' && !path.startsWith('/') && posix.normalize(path) === path && !path.startsWith('..');

/** The outputs without those inside another one (a copy of the outer holds them). */
const outermost = (outputs: readonly string[]): string[] =>
  [...new Set(outputs)].filter((o) => !outputs.some((p) => p !== o && o.startsWith(`${p}/`)));

const staging = '.shadowbox';

function assertOutputs(outputs: readonly string[]): void {
  for (const output of outputs) {
    // The staging directory of restores lives in .shadowbox: its subdirectories may be outputs.
    if (!isOutputPath(output) || output === staging) {
      throw new AppError('INVALID_ARGUMENT', `not a setup output path: ${JSON.stringify(output)}`);
    }
  }
}

/**
 * Copies of setup outputs (node_modules, .venv, build/ …) keyed by setupCacheKey, so a task whose
 * manifests and toolchains match an earlier one restores them instead of installing again. Entries
 * are written whole into a temporary directory and renamed into place: a crash leaves a temporary
 * directory (swept later), never an entry that looks complete. Restores copy out of the entry, so
 * nothing a later run does can change what the next task gets.
 */
export class SetupCache {
  constructor(readonly dir: string) {}

  async lookup(key: string): Promise<CacheEntry | null> {
    assertKey(key);
    const path = join(this.dir, key);
    const parsed = metaSchema.safeParse(
      await readFile(join(path, 'meta.json'), 'utf8')
        .then((text) => JSON.parse(text) as unknown)
        .catch(() => null),
    );
    if (!parsed.success || parsed.data.key !== key) return null;
    const { workspace, outputs, bytes, createdAt } = parsed.data;
    for (const output of outputs) {
      if (!isOutputPath(output) || !(await realEntry(join(path, 'outputs'), output))) return null;
    }
    return { key, path, workspace, outputs, bytes, createdAt };
  }

  /** Stores the `outputs` of `workspace` that exist; a no-op when the key is already stored. */
  async store(key: string, workspace: string, outputs: readonly string[]): Promise<void> {
    assertKey(key);
    assertOutputs(outputs);
    if (!isAbsolute(workspace))
      throw new AppError('INVALID_ARGUMENT', 'workspace must be absolute');
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.sweep();
    if ((await this.lookup(key)) !== null) return;
    const temporary = join(this.dir, `.tmp-${process.pid}-${randomUUID()}`);
    try {
      await mkdir(join(temporary, 'outputs'), { recursive: true });
      const stored: string[] = [];
      for (const output of outermost(outputs)) {
        if (!(await realEntry(workspace, output))) continue;
        const target = join(temporary, 'outputs', output);
        await mkdir(dirname(target), { recursive: true });
        await copyTree(join(workspace, output), target);
        stored.push(output);
      }
      const meta: z.infer<typeof metaSchema> = {
        version: 1,
        key,
        workspace,
        outputs: stored,
        bytes: await bytesOf(join(temporary, 'outputs')),
        createdAt: new Date().toISOString(),
      };
      await writeFile(join(temporary, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
      await this.publish(temporary, key);
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
  }

  /**
   * Copies the entry's outputs into `workspace`, replacing what is there, and relocates them when
   * the workspace path differs from the one they were made in (see relocateOutput). Each output is
   * copied beside its place under `.shadowbox/` and renamed in, so a failed restore leaves no half
   * directory that a run would take for an installed one.
   */
  async restore(
    entry: CacheEntry,
    workspace: string,
  ): Promise<{ restoredPaths: string[]; durationMs: number }> {
    const started = performance.now();
    assertOutputs(entry.outputs);
    const scratch = join(workspace, staging, `restore-${randomUUID()}`);
    const refuse = (path: string): AppError =>
      new AppError('INVALID_STATE', `cannot restore into ${workspace}: ${path} is not a directory`);
    if (!(await realParents(workspace, `${staging}/x`, true))) throw refuse(staging);
    const restoredPaths: string[] = [];
    try {
      await mkdir(scratch);
      for (const output of entry.outputs) {
        if (!(await realParents(workspace, output, true))) throw refuse(dirname(output));
        const staged = join(scratch, String(restoredPaths.length));
        await copyTree(join(entry.path, 'outputs', output), staged);
        if (entry.workspace !== workspace) {
          await relocateOutput(staged, entry.workspace, workspace);
        }
        await rm(join(workspace, output), { recursive: true, force: true });
        await rename(staged, join(workspace, output));
        restoredPaths.push(output);
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    return { restoredPaths, durationMs: Math.round(performance.now() - started) };
  }

  private async publish(temporary: string, key: string): Promise<void> {
    const entry = join(this.dir, key);
    try {
      await rename(temporary, entry);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      // A concurrent store finished first (keep it), or a broken entry is in the way (replace it).
      if ((await this.lookup(key)) !== null) return;
      const trash = join(this.dir, `.trash-${process.pid}-${randomUUID()}`);
      await rename(entry, trash);
      await rm(trash, { recursive: true, force: true });
      await rename(temporary, entry);
    }
  }

  /** Removes what crashed stores (of processes no longer alive) left behind. */
  private async sweep(): Promise<void> {
    for (const name of await readdir(this.dir)) {
      const pid = /^\.(?:tmp|trash)-(\d+)-/.exec(name)?.[1];
      if (pid === undefined || Number(pid) === process.pid || processAlive(Number(pid))) continue;
      await rm(join(this.dir, name), { recursive: true, force: true });
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
