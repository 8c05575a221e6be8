import pLimit from 'p-limit';
import type { SandboxHost } from '../../server/engine/sandbox';
import type { ShadowRunner } from '../../server/engine/shadow';
import { manualShadow, type CopyUpVariant } from './copy-up';
import { inPlaceRun, median, rewarm, shadowRun, timed } from './measure';
import type { BenchProject } from './projects/project';

export interface ParallelFigures {
  readonly project: string;
  /** Where the upper layers live; variants run by hand say so. */
  readonly upper: string;
  readonly parallel: number;
  /** Median of: the four in-place runs one after another (each from the same warm cache). */
  readonly serialMs: number;
  /** Median wall time of running the four hypotheses at once. */
  readonly parallelMs: number;
  readonly serialSamples: readonly number[];
  readonly samples: readonly number[];
}

/** One way of running all four hypotheses at once; returns its wall time. */
export interface ParallelWay {
  readonly upper: string;
  readonly parallel: number;
  readonly run: () => Promise<number>;
}

/** One engine call with `parallel` shadows at once. */
export function engineWay(
  project: BenchProject,
  runner: ShadowRunner,
  upper: string,
  parallel: number,
): ParallelWay {
  return {
    upper,
    parallel,
    run: async () => (await shadowRun(runner, project, project.hypotheses, { parallel })).ms,
  };
}

/**
 * The same four hypotheses at once, but with a mount variant the engine does not make yet (run by
 * hand with the engine's sandbox command): what a proposed change would give.
 */
export function variantWay(
  project: BenchProject,
  variant: CopyUpVariant,
  parallel: number,
  options: { scratch: string; host: SandboxHost },
): ParallelWay {
  const limit = pLimit(parallel);
  const run = async (): Promise<number> => {
    const { ms } = await timed(() =>
      Promise.all(
        project.hypotheses.map((h) =>
          limit(() => manualShadow(project, h, variant, { ...options, inspect: false })),
        ),
      ),
    );
    return ms;
  };
  return { upper: `${variant} (by hand)`, parallel, run };
}

/**
 * Per repetition: the four hypotheses in place one after another (an untimed re-warm after each,
 * so each starts from the same warm cache, as the shadows do), then each parallel way in turn.
 */
export async function measureParallel(
  project: BenchProject,
  ways: readonly ParallelWay[],
  env: Readonly<Record<string, string>>,
  reps: number,
): Promise<ParallelFigures[]> {
  const serial: number[] = [];
  const samples = ways.map(() => [] as number[]);
  for (let rep = 0; rep < reps; rep += 1) {
    let total = 0;
    for (const hypothesis of project.hypotheses) {
      total += (await inPlaceRun(project, hypothesis, env)).ms;
      await rewarm(project, env);
    }
    serial.push(total);
    for (const [i, way] of ways.entries()) samples[i]?.push(await way.run());
  }
  return ways.map((way, i) => ({
    project: project.kind,
    upper: way.upper,
    parallel: way.parallel,
    serialMs: median(serial),
    parallelMs: median(samples[i] ?? []),
    serialSamples: serial,
    samples: samples[i] ?? [],
  }));
}
