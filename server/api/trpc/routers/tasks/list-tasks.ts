import { z } from 'zod';
import { listTasksQuerySchema } from '../../../../tasks/list-tasks-query';
import { authedProcedure } from '../../trpc';
import { taskListSchema } from '../../view-schemas';

/** A page of the task list, with REST's query (`GET /api/v1/tasks`) and answer. */
export const listTasks = authedProcedure
  .input(listTasksQuerySchema.optional())
  .output(z.object({ tasks: taskListSchema, nextCursor: z.string().nullable() }))
  .query(({ ctx, input }) => ctx.tasks.listTasks(ctx.actor, input));
