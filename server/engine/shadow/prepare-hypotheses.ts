import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, isAppError } from '../../errors/app-error';
import { readableError } from '../../errors/readable-error';
import type { FileState, Hypothesis, PreparedChange, PreparedHypothesis } from './hypothesis';
import { checkAgainstWorkspace, checkHypothesisPaths } from './hypothesis-paths';
import { diffChanges } from './unified-diff';

/** A hypothesis that cannot run against the workspace as it is, and why (one readable line). */
export interface RefusedHypothesis {
  readonly name: string;
  /** Position in the request, as for a prepared one. */
  readonly index: number;
  readonly error: string;
}

export interface PreparedHypotheses {
  readonly prepared: readonly PreparedHypothesis[];
  readonly refused: readonly RefusedHypothesis[];
}

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

// An absolute path as error messages spell it (Node's fs errors quote the path they failed on).
const absolutePath = /(?<![\w.~:/-])\/[^\s'"`()<>,;]*/g;

/**
 * One readable line for an error met while preparing or running one hypothesis: absolute paths
 * become what the hypothesis calls them (a scratch directory's `…/upper/calc.py` is `calc.py`),
 * paths inside the workspace become relative, and anything else is cut to its last segment.
 */
export function hypothesisErrorText(
  error: unknown,
  workspace: string,
  paths: readonly string[],
): string {
  const root = path.resolve(workspace);
  const named = [
    ...new Set(
      paths.flatMap((p) => p.split('/').map((_, i, all) => all.slice(0, i + 1).join('/'))),
    ),
  ].sort((a, b) => b.length - a.length);
  const relative = (absolute: string): string => {
    if (absolute === root) return '.';
    if (absolute.startsWith(`${root}/`)) return absolute.slice(root.length + 1);
    return named.find((p) => absolute.endsWith(`/${p}`)) ?? path.basename(absolute);
  };
  return readableError(error).replace(absolutePath, relative);
}

const changedPaths = (h: Hypothesis): string[] => [...h.edits.map((e) => e.path), ...h.delete];

async function prepareOne(
  workspace: string,
  h: Hypothesis,
  index: number,
): Promise<PreparedHypothesis> {
  const changes: PreparedChange[] = [];
  for (const edit of h.edits) {
    const exists = await checkAgainstWorkspace(workspace, h.name, edit.path, 'write');
    const before = await readState(workspace, edit.path, exists);
    changes.push({ path: edit.path, before, after: Buffer.from(edit.content, 'utf8') });
  }
  for (const p of h.delete) {
    await checkAgainstWorkspace(workspace, h.name, p, 'delete');
    changes.push({ path: p, before: await readState(workspace, p, true), after: null });
  }
  const { text, changedLines } = diffChanges(changes);
  return { name: h.name, index, changes, changedLines, diff: text };
}

/**
 * Validates hypotheses against the workspace and reads what they replace, once, before anything
 * runs: the diff, the changed-line count and the in-place restore all come from this snapshot.
 *
 * A request that is malformed as a whole (a name used twice, a path that could never be valid)
 * throws INVALID_HYPOTHESIS naming the hypothesis and the path. A hypothesis that only this
 * workspace rules out (a path under a file, over a directory, a deletion of nothing) is refused on
 * its own, with the reason: the others still run. Nothing is written either way.
 */
export async function prepareHypotheses(
  workspace: string,
  hypotheses: readonly Hypothesis[],
): Promise<PreparedHypotheses> {
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
  const settled = await Promise.all(
    hypotheses.map((h, index) =>
      prepareOne(workspace, h, index).then(
        (prepared) => ({ prepared }),
        (error: unknown) => {
          const text = hypothesisErrorText(error, workspace, changedPaths(h));
          // A refusal already names the hypothesis and the path; a fault says where it happened.
          const why = isAppError(error) ? text : `the hypothesis could not be prepared: ${text}`;
          return { refused: { name: h.name, index, error: why } };
        },
      ),
    ),
  );
  const prepared: PreparedHypothesis[] = [];
  const refused: RefusedHypothesis[] = [];
  for (const result of settled) {
    if ('prepared' in result) prepared.push(result.prepared);
    else refused.push(result.refused);
  }
  return { prepared, refused };
}
