import { chmod, lstat, mkdir, readFile, rm, rmdir, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runProcess } from '../process/run-process';
import { sandboxEnv } from '../sandbox';
import type { Execution, ExecutionRequest, HypothesisExecutor } from './executor';
import type { PreparedChange } from './hypothesis';
import { createRunDir } from './scratch';

async function readIfFile(file: string): Promise<Buffer | null> {
  const stats = await lstat(file).catch(() => null);
  return stats?.isFile() === true ? readFile(file) : null;
}

async function directoryTimes(dir: string): Promise<{ atime: Date; mtime: Date } | null> {
  const stats = await lstat(dir).catch(() => null);
  return stats?.isDirectory() === true ? { atime: stats.atime, mtime: stats.mtime } : null;
}

/**
 * Writes the hypothesis into the workspace, recording each change once made (so a failure half-way
 * restores exactly what was written) and each directory it had to create, shallowest first.
 */
async function writeHypothesis(
  workspace: string,
  changes: readonly PreparedChange[],
  written: PreparedChange[],
  created: string[],
): Promise<void> {
  for (const change of changes) {
    const file = path.join(workspace, change.path);
    if (change.after === null) {
      await unlink(file);
      written.push(change);
      continue;
    }
    const first = await mkdir(path.dirname(file), { recursive: true });
    if (first !== undefined) {
      for (let dir = path.dirname(file); dir.length >= first.length; dir = path.dirname(dir)) created.unshift(dir);
    }
    const mode = change.before.exists ? change.before.mode : 0o644;
    written.push(change);
    await writeFile(file, change.after, { mode });
    await chmod(file, mode);
  }
}

/**
 * Puts back what the hypothesis replaced, but only where the file is still exactly what the
 * hypothesis left (byte-equal, or still absent): anything else was changed by the run, and
 * overwriting it would destroy evidence. Returns the paths it could not restore.
 */
async function restore(workspace: string, changes: readonly PreparedChange[]): Promise<string[]> {
  const notRestored: string[] = [];
  for (const change of changes) {
    const file = path.join(workspace, change.path);
    const current = await readIfFile(file);
    const untouched =
      change.after === null
        ? current === null && (await lstat(file).catch(() => null)) === null
        : current?.equals(change.after) === true;
    if (!untouched) {
      notRestored.push(change.path);
      continue;
    }
    const { before } = change;
    if (!before.exists) {
      await unlink(file);
      continue;
    }
    await writeFile(file, before.content, { mode: before.mode });
    await chmod(file, before.mode);
    await utimes(file, before.atime, before.mtime);
  }
  return notRestored;
}

/**
 * The fallback for machines without user namespaces: writes each hypothesis into the workspace,
 * runs the command there, and restores. Serial by nature, with no network or mount isolation.
 */
export function createInPlaceExecutor(options: { readonly scratchRoot: (workspace: string) => string }): HypothesisExecutor {
  return {
    mode: 'inplace',
    parallelSafe: false,
    async execute(request: ExecutionRequest): Promise<Execution> {
      const { workspace, hypothesis } = request;
      const dir = await createRunDir(options.scratchRoot(workspace));
      const parents = [...new Set(hypothesis.changes.map((c) => path.dirname(path.join(workspace, c.path))))];
      const parentTimes = await Promise.all(parents.map(async (p) => [p, await directoryTimes(p)] as const));
      const written: PreparedChange[] = [];
      const created: string[] = [];
      try {
        const [home, tmp] = [path.join(dir, 'home'), path.join(dir, 'tmp')];
        await Promise.all([mkdir(home), mkdir(tmp)]);
        await writeHypothesis(workspace, hypothesis.changes, written, created);
        const result = await runProcess(request.command[0] ?? '', request.command.slice(1), {
          cwd: path.join(workspace, request.cwd),
          env: sandboxEnv({ home, tmpdir: tmp, extra: request.env }),
          timeoutMs: request.timeoutMs,
          tailBytes: request.tailBytes,
          ...(request.signal === undefined ? {} : { signal: request.signal }),
          ...(request.onLine === undefined ? {} : { onLine: request.onLine }),
        });
        const reports: string[] = [];
        for (const reportPath of request.reportPaths) {
          const text = await readFile(path.join(workspace, reportPath), 'utf8').catch(() => null);
          if (text !== null) reports.push(text);
        }
        const notRestored = await restore(workspace, written.splice(0));
        return {
          process: result,
          reports,
          problem:
            notRestored.length === 0
              ? null
              : `the run changed files the hypothesis wrote; left as the run left them: ${notRestored.join(', ')}`,
        };
      } finally {
        // Only reached with entries left when writing or running threw: put back what was written.
        await restore(workspace, written);
        for (const createdDir of created.reverse()) await rmdir(createdDir).catch(() => undefined);
        for (const [dirPath, times] of parentTimes) {
          if (times !== null) await utimes(dirPath, times.atime, times.mtime).catch(() => undefined);
        }
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
