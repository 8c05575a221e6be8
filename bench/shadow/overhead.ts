import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { runProcess } from '../../server/engine/process/run-process';
import type { ShadowRunner } from '../../server/engine/shadow';
import { median, timed } from './measure';
import type { BenchProject } from './projects/project';

export interface OverheadFigures {
  readonly runs: number;
  /** Median wall times, ms, of each way of running `true`. */
  readonly medians: Readonly<Record<OverheadKind, number>>;
  /** Engine shadow (disk) minus `true` spawned directly: the shadow's fixed overhead. */
  readonly overheadMs: number;
  readonly overheadTmpfsMs: number;
  /** Engine shadow minus the raw unshare + loopback + overlay + `true`: the engine's own share. */
  readonly engineShareMs: number;
}

export type OverheadKind =
  | 'direct'
  | 'unshare'
  | 'unshareMount'
  | 'rawSandbox'
  | 'engineDisk'
  | 'engineTmpfs';

/** The same namespaces as the engine, written by hand: no staging, no clean-up, no report. */
const rawScript = `ip link set lo up && mount -t overlay o -o "lowerdir=$1,upperdir=$2,workdir=$3,userxattr" "$1" && cd "$1" && exec true`;
const nsFlags = ['--user', '--map-root-user', '--mount', '--net', '--pid', '--fork', '--mount-proc'];

/**
 * Runs `true` many times each way, interleaved: spawned directly, under `unshare` alone, under
 * `unshare` with an overlay mount, the engine's namespaces by hand, and through the engine (one
 * hypothesis with a one-file edit, upper on disk and on tmpfs). All spawns use the engine's own
 * process runner, so the differences are the sandbox's.
 */
export async function measureOverhead(
  project: BenchProject,
  runners: { disk: ShadowRunner; tmpfs: ShadowRunner },
  scratch: string,
  env: Readonly<Record<string, string>>,
  runs: number,
): Promise<OverheadFigures> {
  await mkdir(scratch, { recursive: true });
  const dir = await mkdtemp(path.join(scratch, 'raw-'));
  const [upper, work] = [path.join(dir, 'upper'), path.join(dir, 'work')];
  await Promise.all([mkdir(upper), mkdir(work)]);
  const spawn = async (file: string, args: readonly string[]): Promise<number> => {
    const result = await runProcess(file, args, { cwd: dir, env, timeoutMs: 30_000, killGraceMs: 0 });
    if (result.exitCode !== 0) throw new Error(`${file} ${args.join(' ')}: ${result.output.text}`);
    return result.durationMs;
  };
  const hypothesis = project.hypotheses[0];
  if (hypothesis === undefined) throw new Error('no hypothesis');
  const engine = async (runner: ShadowRunner): Promise<void> => {
    const report = await runner.run({ workspace: project.dir, command: ['true'], hypotheses: [hypothesis] });
    if (report.hypotheses[0]?.exitCode !== 0) throw new Error('`true` failed in a shadow');
  };
  const kinds: Record<OverheadKind, () => Promise<unknown>> = {
    direct: () => spawn('true', []),
    unshare: () => spawn('unshare', ['-Urm', 'true']),
    unshareMount: () =>
      spawn('unshare', ['-Urm', 'sh', '-c', rawScript.replace('ip link set lo up && ', ''), 'sh', project.dir, upper, work]),
    rawSandbox: () => spawn('unshare', [...nsFlags, 'sh', '-c', rawScript, 'sh', project.dir, upper, work]),
    engineDisk: () => engine(runners.disk),
    engineTmpfs: () => engine(runners.tmpfs),
  };
  const samples = Object.fromEntries(Object.keys(kinds).map((k) => [k, [] as number[]])) as Record<
    OverheadKind,
    number[]
  >;
  const warmUps = 3;
  for (let i = 0; i < runs + warmUps; i += 1) {
    for (const [kind, fn] of Object.entries(kinds) as [OverheadKind, () => Promise<unknown>][]) {
      const { ms } = await timed(fn);
      if (i >= warmUps) samples[kind].push(ms);
    }
  }
  await rm(dir, { recursive: true, force: true });
  const medians = Object.fromEntries(
    Object.entries(samples).map(([k, v]) => [k, median(v)]),
  ) as Record<OverheadKind, number>;
  return {
    runs,
    medians,
    overheadMs: medians.engineDisk - medians.direct,
    overheadTmpfsMs: medians.engineTmpfs - medians.direct,
    engineShareMs: medians.engineDisk - medians.rawSandbox,
  };
}
