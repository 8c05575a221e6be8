import { createCallerFactory, router } from './trpc';
import { tasksRouter } from './routers/tasks';

/** The UI's API. Components import only its type (components/trpc/router-types.ts). */
export const appRouter = router({ tasks: tasksRouter });

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
