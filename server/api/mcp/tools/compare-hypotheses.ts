import { z } from 'zod';
import {
  compareMatrixSchema,
  iterationNumberSchema,
  type CompareMatrix,
} from '../../../tasks/compare';
import { parseTaskId } from '../../http/schemas';
import { defineTool } from '../define-tool';
import { openSchema } from '../schemas/open-schema';
import { taskIdInput } from './task-id';

/** Rows the text rendering shows; the structured result always has them all. */
const shownRows = 200;

export const compareHypothesesTool = defineTool({
  name: 'compare_hypotheses',
  title: 'Compare hypotheses test by test',
  description:
    'The compare matrix of an iteration (`iteration`, 1-based) or, without it, of the whole ' +
    'task: `columns` (the baseline first, then each hypothesis with its verdict, rank, winner ' +
    'flag, fixed/broken counts, changed lines, duration, origin and author, and `evidence`: how ' +
    'its cells are known) and `rows`, one per test whose status differs between columns, with ' +
    'one cell per column: pass | fail | missing | skipped | not run | unknown (`unknown`: the ' +
    'run printed totals only or its per-test results were not kept; never guessed). Each row ' +
    'says whether a hypothesis broke it (fails or lost a test the baseline passed) or fixed it.',
  input: z.strictObject({
    taskId: taskIdInput,
    iteration: iterationNumberSchema
      .optional()
      .describe('the iteration to compare (1-based); left out: every iteration of the task'),
  }),
  output: openSchema(compareMatrixSchema),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ taskId, iteration }, { services, actor }) =>
    services.tasks.compare(parseTaskId(taskId), iteration, actor),
  render: (matrix) => renderMatrix(matrix as CompareMatrix),
});

/** A plain-text matrix for clients that show only text: the columns, then `test: cells`. */
function renderMatrix(matrix: CompareMatrix): string {
  const columns = matrix.columns.map((c, i) => {
    const flags = [
      c.iteration === null ? null : `iteration ${c.iteration}`,
      c.winner ? 'the winner' : c.verdict,
      c.fixed === null ? null : `fixed ${c.fixed}`,
      c.broken === null ? null : `broken ${c.broken}`,
      `cells ${c.evidence}`,
      c.note,
    ].filter((f) => f !== null);
    return `[${i}] ${c.name} (${flags.join(', ')})`;
  });
  const rows = matrix.rows.slice(0, shownRows).map((r) => `${r.test}: ${r.cells.join(' | ')}`);
  const more = matrix.rows.length - rows.length;
  return [
    `${matrix.rows.length} tests differ across ${matrix.columns.length} columns`,
    ...columns,
    '',
    ...rows,
    ...(more > 0 ? [`… and ${more} more rows (all are in the structured result)`] : []),
  ].join('\n');
}
