import type { Runtime, SandboxStatus } from '../../runtime';
import type { Actor, TaskServiceApi } from '../../tasks/task-api';
import { requestOrigin, type RequestOrigin } from './request-guard';

/** What every procedure gets. */
export interface Context {
  readonly tasks: TaskServiceApi;
  /** The UI acts as the machine's user (see request-guard.ts for who may reach it). */
  readonly actor: Actor;
  readonly origin: RequestOrigin;
  /** null where the runtime has none to tell (unit tests). */
  readonly sandbox: SandboxStatus | null;
}

export type ContextRuntime = Pick<Runtime, 'tasks'> & Partial<Pick<Runtime, 'sandbox'>>;

/** The context without a request: for tests and server-side callers (pages rendering a task). */
export function createContextInner(options: {
  readonly runtime: ContextRuntime;
  readonly origin?: RequestOrigin;
}): Context {
  return {
    tasks: options.runtime.tasks,
    actor: { kind: 'browser' },
    origin: options.origin ?? 'ui',
    sandbox: options.runtime.sandbox ?? null,
  };
}

/** The context of one HTTP request to `/api/trpc`. */
export function createContext(options: {
  readonly req: Request;
  readonly runtime: ContextRuntime;
}): Context {
  return createContextInner({
    runtime: options.runtime,
    origin: requestOrigin(options.req.headers),
  });
}
