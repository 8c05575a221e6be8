import { spawn as nodeSpawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runProcess } from '../../server/engine/process';
import {
  defaultRunLimits,
  sandboxNamespaces,
  prepareSandbox,
  settledTreeUsage,
  treeUsage,
  type SandboxHost,
} from '../../server/engine/sandbox';
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
  /** Of that: the engine's extra sandbox steps (fstab mounts, read-only host) vs its JS work. */
  readonly engineSandboxStepsMs: number;
  readonly engineJsMs: number;
  /** What `volatile` saves on the raw sandbox (no sync of the upper file system at unmount). */
  readonly volatileSavesMs: number;
  /**
   * The run's last disk measurement (between its exit and its verdict), medians: by GNU du, as
   * every measurement was before, and by the in-process walk of a settled small tree.
   */
  readonly finalCheck: { readonly duMs: number; readonly walkMs: number };
}

export type OverheadKind =
  | 'nodeSpawn'
  | 'direct'
  | 'unshare'
  | 'unshareMount'
  | 'rawSandbox'
  | 'rawSandboxVolatile'
  | 'engineArgv'
  | 'engineDisk'
  | 'engineTmpfs';

/** The same namespaces as the engine, written by hand: no staging, no clean-up, no report. */
const rawScript = (options: string): string =>
  `ip link set lo up && mount -t overlay o -o "lowerdir=$1,upperdir=$2,workdir=$3,${options}" "$1" && cd "$1" && exec true`;
// The engine's own outer namespaces, plus the network namespace bubblewrap makes in the engine,
// so the by-hand baseline (namespaces, loopback, overlay; no minimal root) cannot drift.
const nsFlags = [...sandboxNamespaces(false), '--net', '--pid', '--fork', '--mount-proc'];

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
  host: SandboxHost,
  env: Readonly<Record<string, string>>,
  runs: number,
): Promise<OverheadFigures> {
  await mkdir(scratch, { recursive: true });
  const dir = await mkdtemp(path.join(scratch, 'raw-'));
  let fresh = 0;
  /** Fresh upper and work directories (a `volatile` work directory cannot be mounted twice). */
  const layers = async (): Promise<[string, string]> => {
    fresh += 1;
    const pair: [string, string] = [
      path.join(dir, `upper-${fresh}`),
      path.join(dir, `work-${fresh}`),
    ];
    await Promise.all(pair.map((d) => mkdir(d)));
    return pair;
  };
  const spawn = async (
    file: string,
    args: readonly string[],
    runEnv: Readonly<Record<string, string>> = env,
  ): Promise<number> => {
    const { ms, value: result } = await timed(() =>
      runProcess(file, args, { cwd: dir, env: runEnv, timeoutMs: 30_000, killGraceMs: 0 }),
    );
    if (result.exitCode !== 0) throw new Error(`${file} ${args.join(' ')}: ${result.output.text}`);
    return ms;
  };
  const hypothesis = project.hypotheses[0];
  if (hypothesis === undefined) throw new Error('no hypothesis');
  const engine = async (runner: ShadowRunner): Promise<number> => {
    const { ms, value: report } = await timed(() =>
      runner.run({ workspace: project.dir, command: ['true'], hypotheses: [hypothesis] }),
    );
    if (report.hypotheses[0]?.exitCode !== 0) throw new Error('`true` failed in a shadow');
    return ms;
  };
  const raw = async (flags: readonly string[], script: string): Promise<number> => {
    const [upper, work] = await layers();
    return spawn('unshare', [...flags, 'sh', '-c', script, 'sh', project.dir, upper, work]);
  };
  const bare = (): Promise<number> => {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const child = nodeSpawn('true', [], {
        stdio: 'ignore',
        env: { ...env } as NodeJS.ProcessEnv,
      });
      child.once('error', reject);
      child.once('close', () => {
        resolve(performance.now() - started);
      });
    });
  };
  /** The engine's own sandbox command (fstab, read-only host, HOME tmpfs), without the engine. */
  const engineArgv = async (): Promise<number> => {
    const [upper, work] = await layers();
    // A run directory of its own, as the engine gives every run (its fstab and /dev live there).
    const runDir = `${work}-run`;
    await mkdir(runDir);
    const home = `${work}-home`;
    const deleteList = `${work}-deletes`;
    await mkdir(home);
    await writeFile(deleteList, '');
    const layout = {
      kind: 'overlay',
      root: project.dir,
      upper,
      work,
      deleteList,
      tmpfsUpper: false,
      home,
    } as const;
    const sandbox = await prepareSandbox(host, layout, ['true'], {
      runDir,
      env,
      limits: defaultRunLimits,
    });
    try {
      return await spawn(sandbox.file, sandbox.args, sandbox.env);
    } finally {
      await sandbox.cgroup?.destroy();
    }
  };
  const kinds: Record<OverheadKind, () => Promise<number>> = {
    nodeSpawn: bare,
    direct: () => spawn('true', []),
    unshare: () => spawn('unshare', ['-Urm', 'true']),
    unshareMount: () => raw(['-Urm'], rawScript('userxattr').replace('ip link set lo up && ', '')),
    rawSandbox: () => raw(nsFlags, rawScript('userxattr')),
    rawSandboxVolatile: () => raw(nsFlags, rawScript('userxattr,volatile')),
    engineArgv,
    engineDisk: () => engine(runners.disk),
    engineTmpfs: () => engine(runners.tmpfs),
  };
  const samples = Object.fromEntries(Object.keys(kinds).map((k) => [k, [] as number[]])) as Record<
    OverheadKind,
    number[]
  >;
  const warmUps = 3;
  for (let i = 0; i < runs + warmUps; i += 1) {
    for (const [kind, fn] of Object.entries(kinds) as [OverheadKind, () => Promise<number>][]) {
      const ms = await fn();
      if (i >= warmUps) samples[kind].push(ms);
    }
  }
  await rm(dir, { recursive: true, force: true });
  const medians = Object.fromEntries(
    Object.entries(samples).map(([k, v]) => [k, median(v)]),
  ) as Record<OverheadKind, number>;
  const finalCheck = await measureFinalCheck(scratch, runs);
  return {
    runs,
    medians,
    finalCheck,
    overheadMs: medians.engineDisk - medians.direct,
    overheadTmpfsMs: medians.engineTmpfs - medians.direct,
    engineShareMs: medians.engineDisk - medians.rawSandbox,
    engineSandboxStepsMs: medians.engineArgv - medians.rawSandbox,
    engineJsMs: medians.engineDisk - medians.engineArgv,
    volatileSavesMs: medians.rawSandbox - medians.rawSandboxVolatile,
  };
}

/**
 * The last measurement of a run's trees, on an upper like a hypothesis's (one edited file) and an
 * empty cache upper: `du` (two spawns) against the walk of a settled small tree, interleaved.
 */
async function measureFinalCheck(
  scratch: string,
  runs: number,
): Promise<{ duMs: number; walkMs: number }> {
  const dir = await mkdtemp(path.join(scratch, 'final-'));
  const upper = path.join(dir, 'upper');
  const cache = path.join(dir, 'cargo-upper');
  await mkdir(path.join(upper, 'src'), { recursive: true });
  await writeFile(path.join(upper, 'src', 'lib.rs'), 'pub fn f() -> u32 { 1 }\n'.repeat(200));
  await mkdir(cache);
  const du: number[] = [];
  const walk: number[] = [];
  for (let i = 0; i < runs; i++) {
    du.push((await timed(() => treeUsage([upper, cache]))).ms);
    walk.push((await timed(() => settledTreeUsage([upper, cache]))).ms);
  }
  await rm(dir, { recursive: true, force: true });
  return { duMs: median(du), walkMs: median(walk) };
}

/**
 * `npx tsx bench/shadow/overhead.ts [--runs N]`: part 4 alone (the pytest project, warmed as
 * `bench:shadow` warms it), for the edit loop of the sandbox's fixed cost; prints the medians.
 */
async function standalone(): Promise<void> {
  const { default: os } = await import('node:os');
  const { fileURLToPath } = await import('node:url');
  const { probeSandbox } = await import('../../server/engine/sandbox');
  const { createShadowRunner } = await import('../../server/engine/shadow');
  const { rewarm, runEnv, runIn } = await import('./measure');
  const { createPytestProject } = await import('./projects/pytest-project');
  const { ensureGitRepo } = await import('./worktree');
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const workDir = path.join(repoRoot, 'bench', '.work');
  const runsAt = process.argv.indexOf('--runs');
  const runs = runsAt === -1 ? 10 : Number(process.argv[runsAt + 1]);
  await mkdir(workDir, { recursive: true });
  const project = await createPytestProject(workDir);
  const env = await runEnv(workDir);
  await ensureGitRepo(project.dir);
  await runIn(project.dir, project.command, env);
  await rewarm(project, env);
  const dataDir = path.join(workDir, 'data');
  const runners = {
    disk: await createShadowRunner({ dataDir, mode: 'overlay' }),
    tmpfs: await createShadowRunner({ dataDir, mode: 'overlay', tmpfsUpper: true }),
  };
  const probe = await probeSandbox(path.join(dataDir, 'shadows'), { hidden: [dataDir] });
  if (probe.mode !== 'overlay') throw new Error(`no overlay shadows here: ${probe.reason}`);
  const loadBefore = os.loadavg()[0] ?? 0;
  const figures = await measureOverhead(
    project,
    runners,
    path.join(dataDir, 'raw'),
    probe,
    env,
    runs,
  );
  await Promise.all([runners.disk.settled(), runners.tmpfs.settled()]);
  const row = (name: string, ms: number): string =>
    `${name.padEnd(22)} ${ms.toFixed(1).padStart(7)} ms`;
  process.stdout.write(
    [
      `part 4 alone, median of ${runs}; 1-minute load ${loadBefore.toFixed(2)} before, ${(os.loadavg()[0] ?? 0).toFixed(2)} after`,
      ...Object.entries(figures.medians).map(([k, v]) => row(k, v)),
      row('overhead (disk)', figures.overheadMs),
      row('overhead (tmpfs)', figures.overheadTmpfsMs),
      row('final check du', figures.finalCheck.duMs),
      row('final check walk', figures.finalCheck.walkMs),
      '',
    ].join('\n'),
  );
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  standalone().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  });
}
