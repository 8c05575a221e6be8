import type { ProcessResult } from '../process/run-process';
import type { RunLimits } from '../sandbox/run-limits';
import type { PreparedChange, PreparedHypothesis } from './hypothesis';

export type ShadowMode = 'overlay' | 'inplace';

export interface ExecutionRequest {
  readonly workspace: string;
  readonly hypothesis: PreparedHypothesis;
  readonly command: readonly string[];
  /** Run in the workspace itself, writable, instead of a shadow (a run without changes only). */
  readonly inWorkspace: boolean;
  /** Workspace-relative directory to run the command in. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly limits: RunLimits;
  readonly tailBytes: number;
  readonly signal?: AbortSignal;
  readonly onLine?: (line: string) => void;
  /** Workspace-relative report files (JUnit XML) the command writes, to read back after the run. */
  readonly reportPaths: readonly string[];
  /**
   * Workspace-relative report files of a reporter Shadowbox added to the command
   * (machine-reporter.ts): their directory is made before the run, and in the workspace itself
   * they are removed after it.
   */
  readonly addedReports?: readonly string[];
  /**
   * Canary files to stage over the hypothesis in the run's shadow (see canaries.ts); never
   * written anywhere else, so an executor that runs in the workspace itself leaves them out.
   */
  readonly canaries?: readonly PreparedChange[];
}

export interface Execution {
  readonly process: ProcessResult;
  /** Contents of the report files the run wrote, read before its shadow was discarded. */
  readonly reports: readonly string[];
  /** Contents of `addedReports`, in their order: null where the run wrote none. */
  readonly addedReports?: readonly (string | null)[];
  /** Why the run is not trustworthy though it ran (a failed set-up, files left un-restored). */
  readonly problem: string | null;
  /** Whether the request's canaries were staged into the run (absent: they were not). */
  readonly canaried?: boolean;
}

/**
 * The Sandbox port of the shadow runner: runs one prepared hypothesis and leaves the workspace as
 * it found it. Overlay executors may run many at once; in-place executors must run one at a time.
 */
export interface HypothesisExecutor {
  readonly mode: ShadowMode;
  readonly parallelSafe: boolean;
  execute(request: ExecutionRequest): Promise<Execution>;
}
