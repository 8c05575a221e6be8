/**
 * `npm run bench:shadow [-- --quick]`: generates a Rust crate, a pytest project and a TypeScript
 * project under bench/.work, then measures shadows against in-place runs, git worktrees and serial
 * runs, prints a table and writes bench/.work/results-shadow.json. See bench/README.md.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { execa } from 'execa';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { probeSandbox, type SandboxHost } from '../../server/engine/sandbox';
import { createShadowRunner, type ShadowRunner } from '../../server/engine/shadow';
import { measureCliStart } from './cli-start';
import { measureCopyUp, type CopyUpFigures, type CopyUpVariant } from './copy-up';
import { rewarm, runEnv, runIn } from './measure';
import { measureOverhead } from './overhead';
import {
  cliWay,
  engineWay,
  limitWay,
  measureAgainstLimit,
  measureParallel,
  variantWay,
  type LimitFigures,
  type ParallelFigures,
} from './parallel';
import { measurePerHypothesis, type HypothesisFigures } from './per-hypothesis';
import type { BenchProject } from './projects/project';
import { createPytestProject } from './projects/pytest-project';
import { createRustCrate } from './projects/rust-crate';
import { createTsProject } from './projects/ts-project';
import { formatReport, limitSection, type BenchResults } from './report';
import { ensureGitRepo, measureWorktree, type WorktreeFigures } from './worktree';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const workDir = path.join(repoRoot, 'bench', '.work');
// The TypeScript project compiles with our own tsc and @types/node (found by walking up from
// bench/.work): the sandbox shows them only when told to.
const typescriptDir = path.join(repoRoot, 'node_modules', 'typescript');
const sandboxReadOnlyPaths = [typescriptDir, path.join(repoRoot, 'node_modules', '@types')];
const quick = process.argv.includes('--quick');
/** `--only limit`: set-up and the limit part alone (part 3b), a few minutes. */
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex === -1 ? null : (process.argv[onlyIndex + 1] ?? null);
if (only !== null && only !== 'limit') throw new Error(`--only takes "limit", not ${only}`);

/** Repetitions per part; a full run stays under about ten minutes on two cores. */
const plan = quick
  ? {
      perHypothesis: { cargo: 1, pytest: 1, ts: 1 },
      copyUpReps: 1,
      copyUpHypotheses: 1,
      worktree: 1,
      parallel: { cargo: 1, pytest: 1, ts: 1 },
      limit: { cargo: 1, pytest: 2 },
      overhead: 10,
      cliStart: 5,
    }
  : {
      perHypothesis: { cargo: 3, pytest: 3, ts: 2 },
      copyUpReps: 2,
      copyUpHypotheses: 2,
      worktree: 2,
      parallel: { cargo: 2, pytest: 2, ts: 1 },
      limit: { cargo: 2, pytest: 3 },
      overhead: 30,
      cliStart: 20,
    };
const asRoot = process.getuid?.() === 0;
const copyUpVariants: CopyUpVariant[] = quick
  ? ['engine', 'no-volatile', 'tmpfs']
  : [
      'engine',
      'no-volatile',
      'tmpfs',
      ...(asRoot ? (['root-metacopy-volatile'] as const) : []),
      'incremental-off',
    ];

const started = performance.now();
const loadByPart: Record<string, number> = {};
const part = (name: string, line: string): void => {
  loadByPart[name] ??= os.loadavg()[0] ?? 0;
  log(`${name}: ${line}`);
};
const log = (line: string): void => {
  const t = ((performance.now() - started) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[${t} s] ${line}\n`);
};

async function setUp(): Promise<BenchProject[]> {
  await mkdir(workDir, { recursive: true });
  const projects = [
    await createRustCrate(workDir),
    await createPytestProject(workDir),
    await createTsProject(workDir, path.join(typescriptDir, 'bin', 'tsc')),
  ];
  const env = await runEnv(workDir);
  for (const project of projects) {
    await ensureGitRepo(project.dir);
    log(`warming ${project.kind}`);
    await runIn(project.dir, project.command, env); // test-side caches (e.g. pytest's rewritten tests)
    await rewarm(project, env);
  }
  return projects;
}

/**
 * Part 3b, "the limit": for cargo and pytest, four distinct hypotheses in four plain copies at once
 * (no Shadowbox) against the same four in parallel shadows through the engine and through the CLI,
 * and one hypothesis in one plain copy against one shadow (engine, CLI).
 */
async function measureLimits(
  projects: readonly BenchProject[],
  runner: ShadowRunner,
  env: Readonly<Record<string, string>>,
  dataDir: string,
): Promise<LimitFigures[]> {
  const copiesDir = path.join(workDir, 'limit-copies');
  // The CLI runs its build when current, else its sources through tsx (seconds more per start):
  // it is built first, as `npm run build` would, so the CLI rows time what an agent runs.
  await execa(process.execPath, [path.join(repoRoot, 'scripts', 'build-cli.mjs')]);
  const figures: LimitFigures[] = [];
  for (const project of projects) {
    if (project.kind === 'ts') continue;
    const distinct = project.passingHypotheses ?? project.hypotheses;
    const [first] = distinct;
    if (first === undefined) throw new Error(`${project.kind}: no hypotheses`);
    const four = { ...project, hypotheses: distinct };
    const one = { ...project, hypotheses: [first] };
    const cli = { repoRoot, dataDir, specDir: workDir };
    const reps = plan.limit[project.kind];
    part(`part 3b ${project.kind}`, `the limit: plain copies vs shadows, ${reps} rep(s)`);
    figures.push(
      await measureAgainstLimit(
        project,
        limitWay(project, distinct, env, copiesDir),
        [
          { ...engineWay(four, runner, 'disk', 4), upper: 'engine, 4 shadows (disk)' },
          { ...cliWay(four, 4, cli), upper: 'CLI shadow-run, 4 shadows (disk)' },
        ],
        reps,
      ),
      await measureAgainstLimit(
        project,
        limitWay(project, [first], env, copiesDir),
        [
          { ...engineWay(one, runner, 'disk', 1), upper: 'engine, 1 shadow (disk)' },
          { ...cliWay(one, 1, cli), upper: 'CLI shadow-run, 1 shadow (disk)' },
        ],
        reps,
      ),
    );
    log(
      `  ${project.kind}: ${figures
        .slice(-2)
        .map(
          (f) =>
            `limit ${f.hypotheses}: ${f.limitMs.toFixed(0)} ms, ${f.ways.map((w) => `${w.way} ${w.ms.toFixed(0)} ms`).join(', ')}`,
        )
        .join('; ')}`,
    );
  }
  await rm(copiesDir, { recursive: true, force: true });
  return figures;
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadAtStart = os.loadavg();
  const projects = await setUp();
  const env = await runEnv(workDir);
  const dataDir = path.join(workDir, 'data');
  const runners = {
    disk: await createShadowRunner({ dataDir, mode: 'overlay', sandboxReadOnlyPaths }),
    tmpfs: await createShadowRunner({
      dataDir,
      mode: 'overlay',
      tmpfsUpper: true,
      sandboxReadOnlyPaths,
    }),
  };
  const probe = await probeSandbox(path.join(dataDir, 'shadows'), {
    hidden: [dataDir],
    extraReadOnly: sandboxReadOnlyPaths,
  });
  if (probe.mode !== 'overlay') throw new Error(`no overlay shadows here: ${probe.reason}`);
  const host: SandboxHost = probe;

  if (only === 'limit') {
    const limits = await measureLimits(projects, runners.disk, env, dataDir);
    const jsonPath = path.join(workDir, 'results-shadow-limit.json');
    await writeFile(
      jsonPath,
      `${JSON.stringify({ startedAt, quick, loadByPart, limits }, null, 2)}\n`,
    );
    process.stdout.write(
      `${limitSection(limits, loadByPart)}\nTotal benchmark time: ${((performance.now() - started) / 1000).toFixed(0)} s\n` +
        `Results written to ${path.relative(repoRoot, jsonPath)}\n`,
    );
    return;
  }

  const perHypothesis: HypothesisFigures[] = [];
  for (const project of projects) {
    part(`part 1 ${project.kind}`, `${plan.perHypothesis[project.kind]} rep(s) per hypothesis`);
    perHypothesis.push(
      ...(await measurePerHypothesis(project, runners, env, plan.perHypothesis[project.kind], log)),
    );
  }

  const cargo = projects.find((p) => p.kind === 'cargo');
  let copyUp: CopyUpFigures | null = null;
  if (cargo !== undefined) {
    part('part 1b', `copy-up and variants (${copyUpVariants.join(', ')})`);
    copyUp = await measureCopyUp(cargo, env, copyUpVariants, {
      scratch: path.join(dataDir, 'manual'),
      host,
      reps: plan.copyUpReps,
      variantHypotheses: plan.copyUpHypotheses,
    });
  }

  const parallel: ParallelFigures[] = [];
  for (const project of projects) {
    part(`part 3 ${project.kind}`, '4 hypotheses in parallel vs 4 serial in-place runs');
    const ways = [engineWay(project, runners.disk, 'disk', 4)];
    if (project.kind !== 'ts') ways.push(engineWay(project, runners.tmpfs, 'tmpfs', 4));
    if (project.kind === 'cargo') {
      const byHand = { scratch: path.join(dataDir, 'manual'), host };
      ways.push(variantWay(project, 'no-volatile', 4, byHand));
    }
    parallel.push(...(await measureParallel(project, ways, env, plan.parallel[project.kind])));
    if (project.kind !== 'ts') {
      // Through the CLI, with its own serial baseline: four distinct hypotheses that all pass.
      const distinct = { ...project, hypotheses: project.passingHypotheses ?? project.hypotheses };
      const viaCli = cliWay(distinct, 4, { repoRoot, dataDir, specDir: workDir });
      parallel.push(
        ...(await measureParallel(distinct, [viaCli], env, plan.parallel[project.kind])),
      );
    }
  }

  const limits = await measureLimits(projects, runners.disk, env, dataDir);

  const worktree: WorktreeFigures[] = [];
  const worktreeRoot = path.join(workDir, 'worktrees');
  for (const project of quick ? projects.slice(0, 1) : projects) {
    part(`part 2 ${project.kind}`, 'fresh git worktree per attempt');
    worktree.push(await measureWorktree(project, runners, env, worktreeRoot, plan.worktree));
  }
  await rm(worktreeRoot, { recursive: true, force: true });

  part('part 4', `overhead of a shadow around \`true\`, ${plan.overhead} runs`);
  const pytest = projects.find((p) => p.kind === 'pytest') ?? projects[0];
  if (pytest === undefined) throw new Error('no projects');
  const overhead = await measureOverhead(
    pytest,
    runners,
    path.join(dataDir, 'raw'),
    host,
    env,
    plan.overhead,
  );

  part('part 5', `CLI start, ${plan.cliStart} runs of each way`);
  const cliStart = measureCliStart(plan.cliStart);

  const results: BenchResults = {
    startedAt,
    quick,
    machine: { cores: os.availableParallelism(), kernel: os.release(), loadAtStart },
    loadByPart,
    projects: Object.fromEntries(projects.map((p) => [p.kind, p.stats])),
    perHypothesis,
    copyUp,
    worktree,
    parallel,
    limits,
    overhead,
    cliStart,
    totalSeconds: (performance.now() - started) / 1000,
  };
  const jsonPath = path.join(workDir, 'results-shadow.json');
  await writeFile(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(
    `${formatReport(results)}\nResults written to ${path.relative(repoRoot, jsonPath)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:shadow failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
