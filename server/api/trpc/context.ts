import type { Runtime, SandboxStatus } from '../../runtime';
import type { Accounts } from '../../auth';
import type { BatchServiceApi } from '../../batches/batch-api';
import type { EvalRunService } from '../../evals/server-runs/eval-run-service';
import type { ReviewServiceApi } from '../../reviews';
import type { Actor, TaskServiceApi } from '../../tasks/task-api';
import { requestOrigin, type RequestOrigin } from './request-guard';

/** What every procedure gets. */
export interface Context {
  readonly tasks: TaskServiceApi;
  /** The review conversation; null where the runtime has none (unit tests of other procedures). */
  readonly reviews: ReviewServiceApi | null;
  /** Integration batches; null where the runtime has none (unit tests of other procedures). */
  readonly batches: BatchServiceApi | null;
  /** Eval runs on the server; null where the runtime has none (unit tests of other procedures). */
  readonly evals: EvalRunService | null;
  /** The signed-in person (session cookie); null when nobody is (signedInProcedure refuses). */
  readonly actor: Actor | null;
  readonly origin: RequestOrigin;
  /** null where the runtime has none to tell (unit tests). */
  readonly sandbox: SandboxStatus | null;
  /** null where the runtime has none (unit tests of task procedures). */
  readonly accounts: Accounts | null;
  /** The worker processes (PostgreSQL deployments); empty where the runtime has none. */
  readonly listWorkers: Runtime['listWorkers'];
}

export type ContextRuntime = Pick<Runtime, 'tasks'> &
  Partial<Pick<Runtime, 'reviews' | 'batches' | 'evals' | 'sandbox' | 'accounts' | 'listWorkers'>>;

/** The context without a request: for tests and server-side callers (pages rendering a task). */
export function createContextInner(options: {
  readonly runtime: ContextRuntime;
  readonly actor: Actor | null;
  readonly origin?: RequestOrigin;
}): Context {
  return {
    tasks: options.runtime.tasks,
    reviews: options.runtime.reviews ?? null,
    batches: options.runtime.batches ?? null,
    evals: options.runtime.evals ?? null,
    actor: options.actor,
    origin: options.origin ?? 'ui',
    sandbox: options.runtime.sandbox ?? null,
    accounts: options.runtime.accounts ?? null,
    listWorkers: options.runtime.listWorkers ?? (() => Promise.resolve([])),
  };
}

/** The context of one HTTP request to `/api/trpc`: the session cookie says who asks. */
export async function createContext(options: {
  readonly req: Request;
  readonly runtime: ContextRuntime;
}): Promise<Context> {
  const accounts = options.runtime.accounts;
  return createContextInner({
    runtime: options.runtime,
    actor: accounts === undefined ? null : await accounts.sessionActor(options.req.headers),
    origin: requestOrigin(options.req.headers),
  });
}
