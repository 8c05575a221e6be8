import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { ingestGit, type GitUrlPolicy } from '../../engine';
import { AppError } from '../../errors/app-error';
import type { EvalInstance } from '../eval-instance';

// An instance's starting tree as an upload: its base commit with the test patch applied, packed
// as tar.gz where the task service takes uploads from. The task's intake then checks the archive
// like any other.

export interface PackTreeOptions {
  readonly instance: EvalInstance;
  /** The upload directory (the runtime's); the file is the task service's once handed over. */
  readonly uploadDir: string;
  /** The policy a Git URL `repo` must pass, the same as a task's. */
  readonly gitPolicy: GitUrlPolicy;
  /** What a relative local `repo` path is relative to. */
  readonly cwd: string;
}

/** Git on the operator's own repository, with no configuration or hook of theirs taking part. */
const quietGit = {
  env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' },
  extendEnv: true,
} as const;
const gitFlags = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];

const isUrl = (repo: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(repo);

/** Packs the instance's tree; resolves to the archive's path in `uploadDir`. */
export async function packInstanceTree(options: PackTreeOptions): Promise<string> {
  const { instance } = options;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-tree-'));
  try {
    const tree = path.join(scratch, 'tree');
    if (isUrl(instance.repo)) {
      const ingested = await ingestGit({
        into: tree,
        url: instance.repo,
        ref: instance.base_commit,
        policy: options.gitPolicy,
      });
      if (!ingested.ok) throw ingested.error;
    } else {
      await exportLocalCommit(path.resolve(options.cwd, instance.repo), instance.base_commit, tree);
    }
    if (instance.test_patch.trim() !== '') await applyPatch(tree, instance.test_patch, instance);
    const file = path.join(options.uploadDir, `eval-${randomBytes(8).toString('hex')}.tar.gz`);
    await execa('tar', ['-czf', file, '-C', tree, '.']);
    return file;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function exportLocalCommit(repo: string, commit: string, into: string): Promise<void> {
  await mkdir(into);
  const archive = execa('git', [...gitFlags, '-C', repo, 'archive', '--format=tar', commit], {
    ...quietGit,
    reject: false,
  });
  const result = await archive.pipe('tar', ['-x', '-C', into], { reject: false });
  const source = result.pipedFrom[0];
  if (source?.exitCode !== 0) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `repo ${repo}: cannot read base_commit ${commit}: ${lastLine(String(source?.stderr ?? ''))}`,
    );
  }
  if (result.exitCode !== 0) throw new Error(`tar -x failed: ${lastLine(result.stderr)}`);
}

async function applyPatch(tree: string, patch: string, instance: EvalInstance): Promise<void> {
  // Outside any repository git apply works as patch(1) does, refusing paths that leave the tree;
  // the ceiling keeps it from finding a repository above the scratch directory.
  const result = await execa('git', [...gitFlags, 'apply', '--whitespace=nowarn', '-'], {
    cwd: tree,
    input: patch,
    reject: false,
    env: { ...quietGit.env, GIT_CEILING_DIRECTORIES: path.dirname(tree) },
  });
  if (result.exitCode !== 0) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `${instance.instance_id}: test_patch does not apply to base_commit: ${lastLine(result.stderr)}`,
    );
  }
}

const lastLine = (text: string): string =>
  text.trim().split('\n').at(-1)?.slice(0, 300) ?? 'no message';
