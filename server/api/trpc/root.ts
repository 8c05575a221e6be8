import { createCallerFactory, router } from './trpc';
import { listWorkers } from './routers/system/list-workers';
import { sandboxStatus } from './routers/system/sandbox-status';
import { tasksRouter } from './routers/tasks';
import { reviewsRouter } from './routers/reviews';
import { accountRouter, adminRouter } from './routers/account';
import { batchesRouter } from './routers/batches';
import { evalsRouter } from './routers/evals';

/** The UI's API. Components import only its type (components/trpc/router-types.ts). */
export const appRouter = router({
  tasks: tasksRouter,
  reviews: reviewsRouter,
  batches: batchesRouter,
  evals: evalsRouter,
  system: router({ sandbox: sandboxStatus, workers: listWorkers }),
  account: accountRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
