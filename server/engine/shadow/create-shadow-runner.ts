import path from 'node:path';
import { AppError } from '../../errors/app-error';
import type { EventSink } from '../ports';
import { probeSandbox, type SandboxCapabilities } from '../sandbox/probe';
import { clampRunLimits, type RunLimits } from '../sandbox/run-limits';
import type { SandboxHost } from '../sandbox/sandbox-host';
import type { SandboxIdentity } from '../sandbox/sandbox-identity';
import { killStaleSandboxes } from '../sandbox/stale-sandboxes';
import type { HypothesisExecutor, ShadowMode } from './executor';
import { createInPlaceExecutor } from './inplace-executor';
import { createOverlayExecutor } from './overlay-executor';
import {
  BackgroundRemoval,
  isStaleRunName,
  scratchRootFor,
  sweepStaleRuns,
  type SweepReport,
} from './scratch';
import type { ShadowEvent } from './shadow-events';
import type { ShadowRunReport } from './shadow-report';
import { shadowRun, type ShadowRunRequest } from './shadow-run';

export interface ShadowRunnerOptions {
  /** Scratch space (upper layers, per-run HOME) goes under `<dataDir>/shadows`. */
  readonly dataDir: string;
  /**
   * 'auto' probes the machine and, where it has no sandbox, refuses every run (it never runs task
   * code unconfined unless asked); 'overlay' fails to start then; 'inplace' is that explicit ask.
   */
  readonly mode?: ShadowMode | 'auto';
  /** Upper layers on a tmpfs inside each sandbox instead of the data directory's disk. */
  readonly tmpfsUpper?: boolean;
  /** Host paths bound read-only into every sandbox beyond the built-in list. */
  readonly sandboxReadOnlyPaths?: readonly string[];
  /** The host identity runs get, if not the server's (`workspaceIdentity`, for the CLI). */
  readonly identity?: SandboxIdentity | null;
  /** Caps for runs whose request sets none (each field defaults to `defaultRunLimits`). */
  readonly limits?: Partial<RunLimits>;
  /**
   * The most any run may have (SHADOWBOX_HARD_MAX_*): a task stored before caps were ceilings
   * may ask for more, and gets this.
   */
  readonly hardMaxLimits?: RunLimits;
  /**
   * Delete finished runs' directories in processes that outlive this one (see BackgroundRemoval):
   * for a short-lived caller, the CLI, which should exit once it has printed its result.
   */
  readonly detachedRemoval?: boolean;
}

export interface ShadowRunner {
  readonly mode: ShadowMode;
  /** Why 'auto' found no sandbox (and refuses to run); null otherwise. */
  readonly fallbackReason: string | null;
  /** What the start-up sweep found: stale run directories, and files it could not restore. */
  readonly sweep: SweepReport;
  /** How this machine enforces each resource cap (overlay mode); null in place. */
  readonly capabilities: SandboxCapabilities | null;
  /** What the probe found, for other sandboxed work (setup); null in place. */
  readonly sandboxHost: SandboxHost | null;
  /** Where per-run directories of that work go, for a workspace. */
  readonly scratchRoot: (workspace: string) => string;
  /** Deletes finished runs' directories in the background. */
  readonly removal: BackgroundRemoval;
  run(request: ShadowRunRequest, events?: EventSink<ShadowEvent>): Promise<ShadowRunReport>;
  /** Resolves once the scratch space of every finished run has been deleted. */
  settled(): Promise<void>;
}

/**
 * The composition root of the shadow runner: probes once, kills and sweeps what dead servers left
 * (before anything resumes), picks the executor.
 */
export async function createShadowRunner(options: ShadowRunnerOptions): Promise<ShadowRunner> {
  const dataDir = path.resolve(options.dataDir);
  const scratchRoot = (workspace: string): string => scratchRootFor(dataDir, workspace);
  const fallbackRoot = scratchRootFor(dataDir, dataDir);
  const requested = options.mode ?? 'auto';
  const probe =
    requested === 'inplace'
      ? null
      : await probeSandbox(path.join(dataDir, 'shadows'), {
          // The data directory holds the database, every worktree and source repository.
          hidden: [dataDir],
          extraReadOnly: options.sandboxReadOnlyPaths ?? [],
          // Each CLI call is a new process: a pass recorded there saves it the probe's sandbox.
          cacheDir: dataDir,
          ...(options.identity === undefined ? {} : { identity: options.identity }),
        });
  const cgroups = probe?.mode === 'overlay' ? probe.cgroups : null;
  const kill = (runDirs: readonly string[]): Promise<number> =>
    killStaleSandboxes(runDirs, cgroups, isStaleRunName);
  const swept = [
    await sweepStaleRuns(path.join(dataDir, 'shadows'), kill),
    await sweepStaleRuns(fallbackRoot, kill),
  ];
  const sweep: SweepReport = {
    removed: swept.reduce((n, s) => n + s.removed, 0),
    notRestored: swept.flatMap((s) => s.notRestored),
  };

  const removal = new BackgroundRemoval({ detached: options.detachedRemoval ?? false });
  let executor: HypothesisExecutor;
  let fallbackReason: string | null = null;
  if (probe === null) {
    executor = createInPlaceExecutor({ scratchRoot, removal });
  } else {
    if (probe.mode === 'overlay') {
      executor = createOverlayExecutor({
        scratchRoot,
        host: probe,
        removal,
        tmpfsUpper: options.tmpfsUpper ?? false,
      });
    } else if (requested === 'overlay') {
      throw new AppError(
        'SANDBOX_UNAVAILABLE',
        `overlay mode is not available here: ${probe.reason}`,
      );
    } else {
      executor = refusingExecutor(probe.reason);
      fallbackReason = probe.reason;
    }
  }
  return {
    mode: executor.mode,
    fallbackReason,
    sweep,
    capabilities: probe?.mode === 'overlay' ? probe.capabilities : null,
    sandboxHost: probe?.mode === 'overlay' && executor.mode === 'overlay' ? probe : null,
    scratchRoot,
    removal,
    settled: () => removal.settled(),
    run: (request, events) => {
      const asked = { ...options.limits, ...request.limits };
      const limits =
        options.hardMaxLimits === undefined ? asked : clampRunLimits(asked, options.hardMaxLimits);
      const withLimits = { ...request, limits };
      return shadowRun(withLimits, events === undefined ? { executor } : { executor, events });
    },
  };
}

/**
 * What 'auto' runs with on a machine without a sandbox: nothing. A hypothesis is hostile code, and
 * running it unconfined (as the server's user, maybe root) is for an operator to choose.
 */
function refusingExecutor(reason: string): HypothesisExecutor {
  return {
    mode: 'overlay',
    parallelSafe: true,
    execute: () =>
      Promise.reject(
        new AppError(
          'SANDBOX_UNAVAILABLE',
          `no sandbox on this machine, so no task's code runs (${reason}); SHADOWBOX_MODE=inplace (or --mode inplace) runs it without isolation`,
        ),
      ),
  };
}
