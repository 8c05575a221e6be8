import { createCallerFactory, router } from './trpc';
import { sandboxStatus } from './routers/system/sandbox-status';
import { tasksRouter } from './routers/tasks';

/** The UI's API. Components import only its type (components/trpc/router-types.ts). */
export const appRouter = router({ tasks: tasksRouter, system: router({ sandbox: sandboxStatus }) });

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
