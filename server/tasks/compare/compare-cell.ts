import type { Db } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { requireTask } from '../task-access';
import type { Actor } from '../task-api';
import type { CompareCell } from './compare-schema';
import { outputLinesFor } from './output-lines';

/**
 * One cell's output: the test's own output where the parser kept it (jest's and vitest's JSON
 * reports), else the lines of the run's kept output tail that name the test. Apart from the
 * matrix so the matrix stays small. NOT_FOUND unless the actor sees the task and the run is the task's.
 */
export async function compareCell(
  deps: { readonly db: Db },
  input: {
    readonly taskId: string;
    readonly runId: string;
    readonly test: string;
    readonly actor: Actor;
  },
): Promise<CompareCell> {
  const { taskId, runId, test } = input;
  await requireTask(deps.db, taskId, input.actor, 'see');
  const run = await deps.db.run.findFirst({
    where: { id: runId, taskId, kind: { in: ['baseline', 'hypothesis'] } },
    select: { outputTail: true, cases: true },
  });
  if (run === null) throw new AppError('NOT_FOUND', `task ${taskId} has no run ${runId}`);
  const captured = capturedOutput(run.cases, test);
  if (captured !== null) {
    const source = "the test's own output, as the runner's report gave it";
    return { runId, test, lines: captured, source, truncated: captured.at(-1) === '…' };
  }
  const found = outputLinesFor(run.outputTail, test);
  const source =
    found.matchedBy === null
      ? run.outputTail === ''
        ? 'the run kept no output'
        : 'no line of the output the run kept names this test'
      : `the lines of the output the run kept that name this test${
          found.matchedBy === 'name' ? ' (by its name without its file or class)' : ''
        }, with the lines after them`;
  return { runId, test, lines: found.lines, source, truncated: found.truncated };
}

/** The output the parser kept for `test` in the run's kept tests (TestCase.output), if any. */
function capturedOutput(cases: unknown, test: string): string[] | null {
  if (!Array.isArray(cases)) return null;
  const found = (cases as unknown[]).find(
    (c): c is { id: string; output: unknown } =>
      typeof c === 'object' && c !== null && (c as { id?: unknown }).id === test,
  );
  const output = found?.output;
  return Array.isArray(output) && output.every((line) => typeof line === 'string') ? output : null;
}
