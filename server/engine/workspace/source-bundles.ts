import { lstat, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error';
import { bundleChain, type BundleHead, type BundleStore } from './bundle-store';
import { git, runGit } from './git';
import { withRepoLock } from './repo-lock';
import { initBare, makeScratch, publishSource } from './source-repo';
import { assertCommitId, sourceGitDir, type WorkspaceLayout } from './workspace-layout';

/*
 * Git bundles of a source's commits, so a repository that lives on one worker's disk can be
 * rebuilt on another's: `git bundle create` needs a ref to name the tip, so each kept commit gets
 * one (refs/shadowbox/bundles/<sha>), which also keeps it reachable in either repository.
 */

const bundleRef = (sha: string): string => `refs/shadowbox/bundles/${sha}`;

/** The bundle of `tip`: complete when `base` is null, else only what a holder of `base` lacks. */
export async function bundleCommit(
  gitDir: string,
  tip: string,
  base: string | null,
): Promise<Buffer> {
  assertCommitId(tip);
  if (base !== null) assertCommitId(base);
  return withRepoLock(gitDir, async () => {
    await git({ gitDir, args: ['update-ref', bundleRef(tip), tip] });
    return git({
      gitDir,
      args: ['bundle', 'create', '-', bundleRef(tip), ...(base === null ? [] : [`^${base}`])],
    });
  });
}

/** The parent a checkpoint builds on (its bundle holds only what that parent lacks). */
export async function parentOf(gitDir: string, sha: string): Promise<string | null> {
  assertCommitId(sha);
  const out = await runGit({ gitDir, args: ['rev-parse', '--verify', '--quiet', `${sha}^1`] });
  return out.exitCode === 0 ? out.stdout.toString('utf8').trim() : null;
}

export async function hasCommit(gitDir: string, sha: string): Promise<boolean> {
  assertCommitId(sha);
  const present = await lstat(gitDir).then(
    () => true,
    () => false,
  );
  if (!present) return false;
  const out = await runGit({ gitDir, args: ['cat-file', '-e', `${sha}^{commit}`] });
  return out.exitCode === 0;
}

export interface RestoredSource {
  /** The repository was not on this disk and was made from the bundles. */
  readonly created: boolean;
  /** Bundles applied (0: the commit was here already). */
  readonly applied: number;
}

/**
 * Makes the source's bare repository on this disk hold `commit`: made from the complete bundle and
 * every checkpoint bundle after it when it is missing, or given the checkpoints it lacks (a worker
 * that ran the task earlier and comes back to it). A missing link in the chain is a fault: the
 * commit was recorded without its bundle.
 */
export async function restoreSource(options: {
  readonly layout: WorkspaceLayout;
  readonly sourceId: string;
  readonly commit: string;
  readonly bundles: BundleStore;
}): Promise<RestoredSource> {
  const { layout, sourceId, commit, bundles } = options;
  const gitDir = sourceGitDir(layout, sourceId);
  if (await hasCommit(gitDir, commit)) return { created: false, applied: 0 };
  const chain = bundleChain(await bundles.heads(sourceId), commit);
  if (chain === null) {
    throw new AppError(
      'NOT_FOUND',
      `source ${sourceId} cannot be rebuilt at ${commit}: a bundle on the way is not stored`,
    );
  }
  const scratch = await makeScratch(layout, sourceId);
  try {
    const exists = await lstat(gitDir).then(
      () => true,
      () => false,
    );
    if (exists) {
      return await withRepoLock(gitDir, async () => ({
        created: false,
        applied: await applyMissing(gitDir, chain, bundles, scratch),
      }));
    }
    const scratchGitDir = join(scratch, 'repo.git');
    await initBare(scratchGitDir);
    const applied = await applyMissing(scratchGitDir, chain, bundles, scratch);
    try {
      await publishSource(layout, sourceId, scratchGitDir);
    } catch (error) {
      // Another step (or a web request) of this process made it first: fill in what it lacks.
      if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
      return await restoreSource(options);
    }
    return { created: true, applied };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Unbundles, oldest first, each bundle whose tip the repository lacks; returns how many. */
async function applyMissing(
  gitDir: string,
  chain: readonly BundleHead[],
  bundles: BundleStore,
  scratch: string,
): Promise<number> {
  let applied = 0;
  for (const head of chain) {
    if (await hasCommit(gitDir, head.tipSha)) continue;
    // `git bundle unbundle` reads a file only; it refuses a bundle whose prerequisite is absent.
    const file = join(scratch, `${head.tipSha}.bundle`);
    await writeFile(file, await bundles.read(head.sourceId, head.tipSha), { flag: 'wx' });
    await git({ gitDir, args: ['bundle', 'unbundle', file] });
    if (!(await hasCommit(gitDir, head.tipSha))) {
      throw new AppError('INTERNAL', `the bundle of ${head.tipSha} does not hold that commit`);
    }
    await git({ gitDir, args: ['update-ref', bundleRef(head.tipSha), head.tipSha] });
    await rm(file, { force: true });
    applied += 1;
  }
  return applied;
}

/**
 * Stores the bundle of `commit`: complete for a source's baseline, else on its parent (the
 * checkpoint it was committed on). Called before the commit is recorded anywhere, so every commit
 * the database names can be rebuilt.
 */
export async function keepBundle(options: {
  readonly gitDir: string;
  readonly sourceId: string;
  readonly commit: string;
  readonly kind: 'baseline' | 'checkpoint';
  readonly bundles: BundleStore;
}): Promise<void> {
  const { gitDir, sourceId, commit } = options;
  const base = options.kind === 'baseline' ? null : await parentOf(gitDir, commit);
  const bytes = await bundleCommit(gitDir, commit, base);
  await options.bundles.put({ sourceId, tipSha: commit, baseSha: base, bytes });
}
