import { z } from 'zod';
import {
  compareCellSchema,
  compareMatrixSchema,
  iterationNumberSchema,
  runIdSchema,
  testIdSchema,
} from '../../../../tasks/compare';
import { authedProcedure } from '../../trpc';
import { taskIdSchema } from '../../input-schemas';

/** The compare matrix of an iteration, or of the whole task without one (the REST and MCP schema). */
export const compare = authedProcedure
  .input(z.strictObject({ taskId: taskIdSchema, iteration: iterationNumberSchema.optional() }))
  .output(compareMatrixSchema)
  .query(({ ctx, input }) => ctx.tasks.compare(input.taskId, input.iteration, ctx.actor));

/** One cell's output lines, fetched when a reviewer opens the cell. */
export const compareCell = authedProcedure
  .input(z.strictObject({ taskId: taskIdSchema, runId: runIdSchema, test: testIdSchema }))
  .output(compareCellSchema)
  .query(({ ctx, input }) =>
    ctx.tasks.compareCell(input.taskId, input.runId, input.test, ctx.actor),
  );
