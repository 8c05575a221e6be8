import { z } from 'zod';
import { pickRunLimits } from '../../../../engine/sandbox';
import { authedProcedure } from '../../trpc';
import { createTaskInputSchema } from '../../input-schemas';

/** A task from a Git URL; archives are uploaded through `POST /api/uploads/tasks` (progress). */
export const createTask = authedProcedure
  .input(createTaskInputSchema)
  .output(z.object({ id: z.string() }))
  .mutation(({ ctx, input }) =>
    ctx.tasks.createTask(
      {
        source: { kind: 'git', url: input.gitUrl, ref: input.ref },
        testCommand: input.testCommand,
        title: input.title,
        problem: input.problem,
        issueUrl: input.issueUrl,
        maxIterations: input.maxIterations,
        hypothesesPerIteration: input.hypothesesPerIteration,
        hypothesisWaitSecs: input.hypothesisWaitSecs,
        limits: pickRunLimits(input),
        setupCommands: input.setupCommands,
        buildCommand: input.buildCommand,
        knownFailures: input.knownFailures,
        team: input.team,
      },
      ctx.actor,
    ),
  );
