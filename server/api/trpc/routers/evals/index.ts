import { z } from 'zod';
import { AppError } from '../../../../errors/app-error';
import { evalRunIdSchema } from '../../../../evals/server-runs/eval-run-files';
import {
  evalRunDetailSchema,
  evalRunListSchema,
  evalRunProgressSchema,
} from '../../../../evals/server-runs/eval-run-view';
import { maxSetBytes } from '../../../../evals/server-runs/prepare-eval-run';
import { authedProcedure, router } from '../../trpc';

/** A signed-in person's call, on a runtime that runs evals. */
const evalProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.evals === null) throw new AppError('INTERNAL', 'eval runs are not configured');
  return next({ ctx: { ...ctx, evals: ctx.evals } });
});

const count = (max: number) => z.int().min(1).max(max);

export const startEvalRunInputSchema = z.strictObject({
  /** JSON Lines; the service refuses more than maxSetBytes bytes, this a little earlier. */
  set: z.string().max(maxSetBytes),
  setName: z.string().max(200).optional(),
  model: z.string().max(200).optional(),
  k: count(100),
  parallel: count(64),
  maxIterations: count(10),
  testCommand: z.array(z.string().min(1).max(4096)).max(200).optional(),
  timeoutSecs: count(86_400).optional(),
});

/** Eval runs for /coding/evals: a thin layer over EvalRunService (reviewers and admins). */
export const evalsRouter = router({
  /** Every run with its progress, newest first, and the model server runs use. */
  list: evalProcedure.output(evalRunListSchema).query(({ ctx }) => ctx.evals.list(ctx.actor)),
  /** A run's summary, attempts and report. */
  get: evalProcedure
    .input(z.strictObject({ runId: evalRunIdSchema }))
    .output(evalRunDetailSchema)
    .query(({ ctx, input }) => ctx.evals.get(input.runId, ctx.actor)),
  /** Starts a run in the background on the server's model; its progress at the start. */
  start: evalProcedure
    .input(startEvalRunInputSchema)
    .output(evalRunProgressSchema)
    .mutation(({ ctx, input }) => ctx.evals.start(input, ctx.actor)),
});
