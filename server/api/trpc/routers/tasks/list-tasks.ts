import { z } from 'zod';
import { listTasksQuerySchema } from '../../../../tasks/list-tasks-query';
import { authedProcedure } from '../../trpc';
import { taskListSchema } from '../../view-schemas';

/** REST's query, plus what useInfiniteQuery sends: a null cursor for the first page, and a direction. */
const listInputSchema = listTasksQuerySchema
  .extend({
    cursor: listTasksQuerySchema.shape.cursor.unwrap().nullish(),
    direction: z.enum(['forward', 'backward']).optional(),
  })
  .optional();

/** A page of the task list, with REST's query (`GET /api/v1/tasks`) and answer. */
export const listTasks = authedProcedure
  .input(listInputSchema)
  .output(z.object({ tasks: taskListSchema, nextCursor: z.string().nullable() }))
  .query(({ ctx, input }) => {
    // Pages go forward only (newest first); the cursor alone says where.
    const { cursor, direction: _direction, ...query } = input ?? {};
    return ctx.tasks.listTasks(ctx.actor, { ...query, ...(cursor == null ? {} : { cursor }) });
  });
