import { iterationNumberSchema, runIdSchema, testIdSchema } from '../../tasks/compare';
import { AppError } from '../../errors/app-error';
import { jsonResponse } from '../http/http-helpers';
import { parseTaskId } from '../http/schemas';
import { parseWith } from '../http/validation';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';
import { parseCount } from './query';

/**
 * `GET /api/v1/tasks/{id}/compare?iteration=N` → the compare matrix of iteration N, or of the
 * whole task without `iteration` (the schema is compareMatrixSchema, as tRPC's and MCP's).
 */
export const handleCompare = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const iteration = new URL(request.url).searchParams.get('iteration');
  const matrix = await runtime.tasks.compare(
    parseTaskId(params.id),
    iteration === null
      ? undefined
      : parseWith(iterationNumberSchema, parseCount(iteration, 'iteration'), 'iteration'),
    actor,
  );
  return jsonResponse(matrix);
});

/**
 * `GET /api/v1/tasks/{id}/compare/cell?run=R&test=T` → one cell's output lines (compareCellSchema):
 * apart from the matrix, so the matrix stays small.
 */
export const handleCompareCell = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const query = new URL(request.url).searchParams;
  const run = query.get('run');
  const test = query.get('test');
  if (run === null || test === null) {
    throw new AppError(
      'INVALID_ARGUMENT',
      'give the run (`run`) and the test (`test`) of the cell',
    );
  }
  const cell = await runtime.tasks.compareCell(
    parseTaskId(params.id),
    parseWith(runIdSchema, run, 'run'),
    parseWith(testIdSchema, test, 'test'),
    actor,
  );
  return jsonResponse(cell);
});
