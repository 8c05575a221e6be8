import type { Hypothesis, ShadowRunner } from '../../server/engine/shadow';
import {
  checkSameOutcome,
  inPlaceRun,
  median,
  rewarm,
  shadowRun,
  type Cpu,
  type Sample,
} from './measure';
import type { BenchProject } from './projects/project';

export type Variant = 'inplace' | 'disk' | 'tmpfs';
const variants: readonly Variant[] = ['inplace', 'disk', 'tmpfs'];

export interface HypothesisFigures {
  readonly project: string;
  readonly hypothesis: string;
  readonly exitCode: number | null;
  /** Median wall time per variant, ms. */
  readonly inplaceMs: number;
  readonly diskMs: number;
  readonly tmpfsMs: number;
  /** Median time of the command's own process inside the shadow (upper on disk), ms. */
  readonly diskProcessMs: number;
  readonly inplaceProcessMs: number;
  /** Median CPU seconds (user, system) of the command per variant. */
  readonly cpu: Readonly<Record<Variant, Cpu | null>>;
  readonly samples: Readonly<Record<Variant, readonly number[]>>;
}

export interface Runners {
  readonly disk: ShadowRunner;
  readonly tmpfs: ShadowRunner;
}

async function once(
  variant: Variant,
  runners: Runners,
  project: BenchProject,
  hypothesis: Hypothesis,
  env: Readonly<Record<string, string>>,
): Promise<Sample> {
  if (variant === 'inplace') {
    const sample = await inPlaceRun(project, hypothesis, env);
    await rewarm(project, env); // the next run starts from the same warm cache again
    return sample;
  }
  const { results } = await shadowRun(runners[variant], project, [hypothesis]);
  const [sample] = results;
  if (sample === undefined) throw new Error('no result');
  return sample;
}

/**
 * Each hypothesis in place, in a shadow with its upper layer on disk and on tmpfs, interleaved and
 * in rotating order so that drift and neighbours' load fall on every variant alike. Every run
 * starts from the same warm cache: shadows never change it, and an in-place run is followed by an
 * untimed re-warm. One warm-up round on the first hypothesis is discarded.
 */
export async function measurePerHypothesis(
  project: BenchProject,
  runners: Runners,
  env: Readonly<Record<string, string>>,
  reps: number,
  log: (line: string) => void,
): Promise<HypothesisFigures[]> {
  const [first] = project.hypotheses;
  if (first !== undefined) for (const v of variants) await once(v, runners, project, first, env);
  const figures: HypothesisFigures[] = [];
  for (const hypothesis of project.hypotheses) {
    const samples: Record<Variant, Sample[]> = { inplace: [], disk: [], tmpfs: [] };
    for (let rep = 0; rep < reps; rep += 1) {
      for (let k = 0; k < variants.length; k += 1) {
        const variant = variants[(rep + k) % variants.length] ?? 'inplace';
        samples[variant].push(await once(variant, runners, project, hypothesis, env));
      }
    }
    const [a, b, c] = [samples.inplace[0], samples.disk[0], samples.tmpfs[0]];
    if (a !== undefined && b !== undefined && c !== undefined) {
      checkSameOutcome(`${project.kind}/${hypothesis.name} disk`, a, b);
      checkSameOutcome(`${project.kind}/${hypothesis.name} tmpfs`, a, c);
    }
    const ms = (v: Variant): number[] => samples[v].map((s) => s.ms);
    const cpu = (v: Variant): Cpu | null => {
      const known = samples[v].flatMap((s) => (s.cpu === null ? [] : [s.cpu]));
      if (known.length === 0) return null;
      return { user: median(known.map((c) => c.user)), sys: median(known.map((c) => c.sys)) };
    };
    const row: HypothesisFigures = {
      project: project.kind,
      hypothesis: hypothesis.name,
      exitCode: a?.exitCode ?? null,
      inplaceMs: median(ms('inplace')),
      diskMs: median(ms('disk')),
      tmpfsMs: median(ms('tmpfs')),
      diskProcessMs: median(samples.disk.map((s) => s.processMs ?? Number.NaN)),
      inplaceProcessMs: median(samples.inplace.map((s) => s.processMs ?? Number.NaN)),
      cpu: { inplace: cpu('inplace'), disk: cpu('disk'), tmpfs: cpu('tmpfs') },
      samples: { inplace: ms('inplace'), disk: ms('disk'), tmpfs: ms('tmpfs') },
    };
    log(
      `  ${project.kind}/${hypothesis.name}: in-place ${row.inplaceMs.toFixed(0)} ms, ` +
        `disk ${row.diskMs.toFixed(0)} ms, tmpfs ${row.tmpfsMs.toFixed(0)} ms (exit ${String(row.exitCode)})`,
    );
    figures.push(row);
  }
  return figures;
}
