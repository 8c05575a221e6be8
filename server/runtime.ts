import type { Actor, TaskServiceApi } from './tasks/task-api';

/** What the transports (REST routes, tRPC, MCP) get from the server process. */
export interface Runtime {
  readonly tasks: TaskServiceApi;
  /** Resolves a `Authorization: Bearer …` header to a token actor; UNAUTHENTICATED otherwise. */
  authenticate(authorization: string | null): Promise<Actor>;
  /** Where uploads are streamed before the task service takes them. */
  readonly uploadDir: string;
  /** Largest accepted archive upload, in bytes. */
  readonly maxUploadBytes: number;
}

/** The process's runtime, started once (migrations, sweep, job runner) on first use. */
export function getRuntime(): Promise<Runtime> {
  throw new Error('runtime not wired yet');
}
