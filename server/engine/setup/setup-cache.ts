import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import { isProcessAlive } from '../process/process-alive';
import { relocateOutput } from './relocate-output';
import { digestOutput } from './setup-cache-digest';
import { bytesOf, copyTree, realEntry, realParents } from './setup-cache-fs';

export { maxRelocatedBytes, relocateOutput } from './relocate-output';
export { digestOutput, linkStaysInside, type OutputCheck } from './setup-cache-digest';
export {
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
  /** Each output's content address when it was stored (digestOutput), checked on restore. */
  readonly digests: Readonly<Record<string, string>>;
  readonly bytes: number;
  readonly createdAt: string;
}

/** A restore is a value: a refused one restored nothing, and setup installs instead. */
export type RestoreResult =
  | { readonly ok: true; readonly restoredPaths: string[]; readonly durationMs: number }
  | { readonly ok: false; readonly reason: string; readonly durationMs: number };

const keyPattern = /^[0-9a-f]{64}$/;
const metaSchema = z.object({
  // 2: outputs carry their digests; entries of version 1 are misses, and replaced when stored.
  version: z.literal(2),
  key: z.string().regex(keyPattern),
  // Relocation rewrites this path wherever it occurs: never `/` or a path spelled two ways.
  workspace: z.string().refine((p) => isAbsolute(p) && posix.normalize(p) === p && p !== '/'),
  outputs: z.array(z.object({ path: z.string(), digest: z.string().regex(keyPattern) })),
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
 * Copies of setup outputs (node_modules, .venv, build/ …) keyed by setupCacheKey, so a task of the
 * same owner whose tree, commands and toolchains match an earlier one restores them instead of
 * installing again. Entries
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
    const { workspace, bytes, createdAt } = parsed.data;
    const outputs = parsed.data.outputs.map((o) => o.path);
    for (const output of outputs) {
      if (!isOutputPath(output) || !(await realEntry(join(path, 'outputs'), output))) return null;
    }
    const digests = Object.fromEntries(parsed.data.outputs.map((o) => [o.path, o.digest]));
    return { key, path, workspace, outputs, digests, bytes, createdAt };
  }

  /**
   * Stores the `outputs` of `workspace` that exist, each with its digest; a no-op when the key is
   * already stored. Refuses (throws) an output the restore would refuse: a link out of the
   * worktree, a FIFO or device.
   */
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
      const stored: { path: string; digest: string }[] = [];
      for (const output of outermost(outputs)) {
        if (!(await realEntry(workspace, output))) continue;
        const target = join(temporary, 'outputs', output);
        await mkdir(dirname(target), { recursive: true });
        await copyTree(join(workspace, output), target);
        // The digest of the copy, which is what later restores get.
        const check = await digestOutput(target, output);
        if (!check.ok) throw new AppError('INVALID_STATE', `cannot store ${check.reason}`);
        stored.push({ path: output, digest: check.digest });
      }
      const meta: z.infer<typeof metaSchema> = {
        version: 2,
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
   * the workspace path differs from the one they were made in (see relocateOutput). Every output
   * is first copied under `.shadowbox/` and checked there, in the copy that will be put in place:
   * its digest must be the one recorded at store time and no link in it may leave the worktree.
   * Only when all outputs passed are they renamed in, so a refused or failed restore leaves no
   * half directory that a run would take for an installed one. Nothing is written outside the
   * worktree: the parents of every place written are real directories (never links), and no link
   * is followed. An entry that fails its check is removed; the next store replaces it.
   */
  async restore(entry: CacheEntry, workspace: string): Promise<RestoreResult> {
    const started = performance.now();
    const durationMs = (): number => Math.round(performance.now() - started);
    const refuse = (reason: string): RestoreResult => ({
      ok: false,
      reason,
      durationMs: durationMs(),
    });
    assertOutputs(entry.outputs);
    const notDirectory = (path: string): string =>
      `cannot restore into ${workspace}: ${path} is not a directory`;
    if (!(await realParents(workspace, `${staging}/x`, true))) return refuse(notDirectory(staging));
    const scratch = join(workspace, staging, `restore-${randomUUID()}`);
    try {
      await mkdir(scratch);
      const staged: string[] = [];
      for (const output of entry.outputs) {
        if (!(await realParents(workspace, output, true))) {
          return refuse(notDirectory(dirname(output)));
        }
        const copy = join(scratch, String(staged.length));
        await copyTree(join(entry.path, 'outputs', output), copy);
        const check = await digestOutput(copy, output);
        const reason = !check.ok
          ? check.reason
          : check.digest !== entry.digests[output]
            ? `${output} does not match the digest it was stored with`
            : null;
        if (reason !== null) {
          await this.evict(entry.key);
          return refuse(`cache entry ${entry.key.slice(0, 12)} refused: ${reason}`);
        }
        if (entry.workspace !== workspace) {
          await relocateOutput(copy, entry.workspace, workspace);
        }
        staged.push(copy);
      }
      for (const [i, output] of entry.outputs.entries()) {
        // rm removes a link in the output's place, never what it points at.
        await rm(join(workspace, output), { recursive: true, force: true });
        await rename(staged[i] ?? '', join(workspace, output));
      }
      return { ok: true, restoredPaths: [...entry.outputs], durationMs: durationMs() };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** Takes an entry out of use (the next store writes a fresh one). */
  private async evict(key: string): Promise<void> {
    const trash = join(this.dir, `.trash-${process.pid}-${randomUUID()}`);
    await rename(join(this.dir, key), trash).catch(() => undefined);
    await rm(trash, { recursive: true, force: true });
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
      await this.evict(key);
      await rename(temporary, entry);
    }
  }

  /** Removes what crashed stores (of processes no longer alive) left behind. */
  private async sweep(): Promise<void> {
    for (const name of await readdir(this.dir)) {
      const pid = /^\.(?:tmp|trash)-(\d+)-/.exec(name)?.[1];
      if (pid === undefined || Number(pid) === process.pid || isProcessAlive(Number(pid))) continue;
      await rm(join(this.dir, name), { recursive: true, force: true });
    }
  }
}
