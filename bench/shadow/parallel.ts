import type { ShadowRunner } from '../../server/engine/shadow';
import { median, shadowRun } from './measure';
import type { HypothesisFigures } from './per-hypothesis';
import type { BenchProject } from './projects/project';

export interface ParallelFigures {
  readonly project: string;
  readonly upper: 'disk' | 'tmpfs';
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
  upper: 'disk' | 'tmpfs',
  parallel: number,
  perHypothesis: readonly HypothesisFigures[],
  reps: number,
): Promise<ParallelFigures> {
  const samples: number[] = [];
  for (let rep = 0; rep < reps; rep += 1) {
    const { ms } = await shadowRun(runner, project, project.hypotheses, { parallel });
    samples.push(ms);
  }
  const serialMs = perHypothesis
    .filter((f) => f.project === project.kind)
    .reduce((sum, f) => sum + f.inplaceMs, 0);
  return { project: project.kind, upper, parallel, serialMs, parallelMs: median(samples), samples };
}
