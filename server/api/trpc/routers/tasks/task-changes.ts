import { z } from 'zod';
import { streamProcedure } from '../../trpc';
import { taskChangeSchema } from '../../view-schemas';
import { zIterable } from '../../z-async-iterable';

/** A notice whenever a task the person sees has a new event: the task list refetches. Nothing to resume. */
export const taskChanges = streamProcedure
  .input(z.object({}).optional())
  .output(zIterable(taskChangeSchema))
  .subscription(async function* ({ ctx, signal }) {
    const stop = signal ?? new AbortController().signal;
    yield* ctx.tasks.taskChanges(stop, ctx.actor);
  });
