import pLimit from 'p-limit';
import type { ShadowRunner } from '../../server/engine/shadow';
import { manualShadow, type CopyUpVariant } from './copy-up';
import { median, shadowRun, timed } from './measure';
import type { HypothesisFigures } from './per-hypothesis';
import type { BenchProject } from './projects/project';

export interface ParallelFigures {
  readonly project: string;
  /** Where the upper layers live; variants run by hand say so. */
  readonly upper: string;
  readonly parallel: number;
  /** Four in-place runs one after another: the sum of the per-hypothesis in-place medians. */
  readonly serialMs: number;
  /** Median wall time of one engine call running the four hypotheses at once. */
  readonly parallelMs: number;
  readonly samples: readonly number[];
}

/**
 * All four hypotheses in one engine call with `parallel` shadows at once. The serial baseline is
 * the sum of the four in-place medians measured in part 1, each from the same warm cache.
 */
export async function measureParallel(
  project: BenchProject,
  runner: ShadowRunner,
  upper: string,
  parallel: number,
  perHypothesis: readonly HypothesisFigures[],
  reps: number,
): Promise<ParallelFigures> {
  const samples: number[] = [];
  for (let rep = 0; rep < reps; rep += 1) {
    const { ms } = await shadowRun(runner, project, project.hypotheses, { parallel });
    samples.push(ms);
  }
  return {
    project: project.kind,
    upper,
    parallel,
    serialMs: serialOf(project, perHypothesis),
    parallelMs: median(samples),
    samples,
  };
}

function serialOf(project: BenchProject, perHypothesis: readonly HypothesisFigures[]): number {
  return perHypothesis
    .filter((f) => f.project === project.kind)
    .reduce((sum, f) => sum + f.inplaceMs, 0);
}

/**
 * The same four hypotheses at once, but with a mount variant the engine does not make yet (run by
 * hand with the engine's argv): what a proposed change would give.
 */
export async function measureParallelVariant(
  project: BenchProject,
  variant: CopyUpVariant,
  parallel: number,
  perHypothesis: readonly HypothesisFigures[],
  reps: number,
  options: { scratch: string; ipPath: string },
): Promise<ParallelFigures> {
  const samples: number[] = [];
  const limit = pLimit(parallel);
  for (let rep = 0; rep < reps; rep += 1) {
    const { ms } = await timed(() =>
      Promise.all(
        project.hypotheses.map((h) =>
          limit(() => manualShadow(project, h, variant, { ...options, inspect: false })),
        ),
      ),
    );
    samples.push(ms);
  }
  return {
    project: project.kind,
    upper: `${variant} (by hand)`,
    parallel,
    serialMs: serialOf(project, perHypothesis),
    parallelMs: median(samples),
    samples,
  };
}
