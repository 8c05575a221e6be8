import { authedProcedure } from '../../trpc';
import { taskInputSchema } from '../../input-schemas';
import { workspaceFilesSchema } from '../../view-schemas';

/** The workspace's files at the newest checkpoint: what a hypothesis written here can edit. */
export const listFiles = authedProcedure
  .input(taskInputSchema)
  .output(workspaceFilesSchema)
  .query(({ ctx, input }) => ctx.tasks.listFiles(input.taskId, ctx.actor));
