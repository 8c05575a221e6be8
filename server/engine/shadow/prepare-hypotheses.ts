import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import type { FileState, Hypothesis, PreparedChange, PreparedHypothesis } from './hypothesis';
import { checkAgainstWorkspace, checkHypothesisPaths } from './hypothesis-paths';
import { diffChanges } from './unified-diff';

async function readState(workspace: string, p: string, exists: boolean): Promise<FileState> {
  if (!exists) return { exists: false };
  const file = path.join(workspace, p);
  const [content, stats] = await Promise.all([readFile(file), lstat(file)]);
  return {
    exists: true,
    content,
    mode: stats.mode & 0o7777,
  };
}

/**
 * Validates hypotheses against the workspace and reads what they replace, once, before anything
 * runs: the diff, the changed-line count and the in-place restore all come from this snapshot.
 * Throws INVALID_HYPOTHESIS naming the hypothesis and the path; nothing has been written then.
 */
export async function prepareHypotheses(
  workspace: string,
  hypotheses: readonly Hypothesis[],
): Promise<PreparedHypothesis[]> {
  const names = new Set<string>();
  for (const h of hypotheses) {
    if (names.has(h.name)) {
      throw new AppError('INVALID_HYPOTHESIS', `hypothesis name '${h.name}' is used twice`, {
        details: { hypothesis: h.name },
      });
    }
    names.add(h.name);
    checkHypothesisPaths(h);
  }
  return Promise.all(
    hypotheses.map(async (h, index) => {
      const changes: PreparedChange[] = [];
      for (const edit of h.edits) {
        const exists = await checkAgainstWorkspace(workspace, h.name, edit.path);
        const before = await readState(workspace, edit.path, exists);
        changes.push({ path: edit.path, before, after: Buffer.from(edit.content, 'utf8') });
      }
      for (const p of h.delete) {
        if (!(await checkAgainstWorkspace(workspace, h.name, p))) {
          throw new AppError(
            'INVALID_HYPOTHESIS',
            `hypothesis '${h.name}': cannot delete '${p}': no such file`,
            {
              details: { hypothesis: h.name, path: p },
            },
          );
        }
        changes.push({ path: p, before: await readState(workspace, p, true), after: null });
      }
      const { text, changedLines } = diffChanges(changes);
      return { name: h.name, index, changes, changedLines, diff: text };
    }),
  );
}
