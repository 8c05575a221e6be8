import path from 'node:path';
import { AppError } from '../../errors/app-error';
import type { EventSink } from '../ports';
import { probeSandbox } from '../sandbox/probe';
import type { HypothesisExecutor, ShadowMode } from './executor';
import { createInPlaceExecutor } from './inplace-executor';
import { createOverlayExecutor } from './overlay-executor';
import { BackgroundRemoval, scratchRootFor, sweepStaleRuns, type SweepReport } from './scratch';
import type { ShadowEvent } from './shadow-events';
import type { ShadowRunReport } from './shadow-report';
import { shadowRun, type ShadowRunRequest } from './shadow-run';

export interface ShadowRunnerOptions {
  /** Scratch space (upper layers, per-run HOME) goes under `<dataDir>/shadows`. */
  readonly dataDir: string;
  /** 'auto' probes the machine and falls back to in-place; 'overlay' fails if it cannot. */
  readonly mode?: ShadowMode | 'auto';
  /** Upper layers on a tmpfs inside each sandbox instead of the data directory's disk. */
  readonly tmpfsUpper?: boolean;
}

export interface ShadowRunner {
  readonly mode: ShadowMode;
  /** Why 'auto' fell back to in-place mode; null otherwise. */
  readonly fallbackReason: string | null;
  /** What the start-up sweep found: stale run directories, and files it could not restore. */
  readonly sweep: SweepReport;
  run(request: ShadowRunRequest, events?: EventSink<ShadowEvent>): Promise<ShadowRunReport>;
  /** Resolves once the scratch space of every finished run has been deleted. */
  settled(): Promise<void>;
}

/** The composition root of the shadow runner: sweeps leftovers, probes once, picks the executor. */
export async function createShadowRunner(options: ShadowRunnerOptions): Promise<ShadowRunner> {
  const dataDir = path.resolve(options.dataDir);
  const scratchRoot = (workspace: string): string => scratchRootFor(dataDir, workspace);
  const fallbackRoot = scratchRootFor(dataDir, dataDir);
  const swept = [
    await sweepStaleRuns(path.join(dataDir, 'shadows')),
    await sweepStaleRuns(fallbackRoot),
  ];
  const sweep: SweepReport = {
    removed: swept.reduce((n, s) => n + s.removed, 0),
    notRestored: swept.flatMap((s) => s.notRestored),
  };

  const removal = new BackgroundRemoval();
  const requested = options.mode ?? 'auto';
  let executor: HypothesisExecutor;
  let fallbackReason: string | null = null;
  if (requested === 'inplace') {
    executor = createInPlaceExecutor({ scratchRoot, removal });
  } else {
    const probe = await probeSandbox(path.join(dataDir, 'shadows'));
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
      executor = createInPlaceExecutor({ scratchRoot, removal });
      fallbackReason = probe.reason;
    }
  }
  return {
    mode: executor.mode,
    fallbackReason,
    sweep,
    settled: () => removal.settled(),
    run: (request, events) =>
      shadowRun(request, events === undefined ? { executor } : { executor, events }),
  };
}
