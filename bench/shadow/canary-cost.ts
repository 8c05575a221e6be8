/**
 * `npx tsx bench/shadow/canary-cost.ts [--reps N] [--only cargo|pytest]`: what the canary tests cost a run. Each
 * hypothesis of the cargo and pytest bench projects runs in a shadow on disk with its canaries
 * and without (the same request with `runner: 'auto'`, for which no canaries are placed; the
 * output is read the same), interleaved, and the medians are compared. The TypeScript project's
 * command is a shell script, which gets no canaries, so it is not measured.
 */
import { mkdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { sandboxIdentity } from '../../server/engine/sandbox';
import { createShadowRunner, type ShadowRunner } from '../../server/engine/shadow';
import { median, rewarm, runEnv, runIn, timed } from './measure';
import type { BenchProject } from './projects/project';
import { createPytestProject } from './projects/pytest-project';
import { createRustCrate } from './projects/rust-crate';
import { ensureGitRepo } from './worktree';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const workDir = path.join(repoRoot, 'bench', '.work');
const repsArg = process.argv.indexOf('--reps');
const reps = repsArg < 0 ? 5 : Number(process.argv[repsArg + 1] ?? 5);

type Variant = 'canaries' | 'none';

async function once(
  runner: ShadowRunner,
  project: BenchProject,
  index: number,
  variant: Variant,
): Promise<number> {
  const hypothesis = project.hypotheses[index];
  if (hypothesis === undefined) throw new Error(`no hypothesis ${index}`);
  const { ms, value } = await timed(() =>
    runner.run({
      workspace: project.dir,
      command: project.command,
      hypotheses: [hypothesis],
      parallel: 1,
      ...(variant === 'none' ? { runner: 'auto' as const } : {}),
    }),
  );
  const outcome = value.hypotheses[0];
  const checked = outcome?.canaries !== undefined && 'failing' in outcome.canaries;
  if (outcome?.error != null) throw new Error(`${hypothesis.name}: ${outcome.error}`);
  if (checked !== (variant === 'canaries')) {
    throw new Error(`${hypothesis.name} ${variant}: canaries ${JSON.stringify(outcome?.canaries)}`);
  }
  if (outcome?.tampered !== undefined) throw new Error(`${hypothesis.name}: ${outcome.tampered}`);
  if (outcome?.parsed !== true || outcome.buildFailed) {
    throw new Error(`${hypothesis.name} ${variant}: no test results\n${outcome?.outputTail ?? ''}`);
  }
  return ms;
}

async function main(): Promise<void> {
  await mkdir(workDir, { recursive: true });
  const env = await runEnv(workDir);
  const only = process.argv.indexOf('--only');
  const kinds = only < 0 ? ['cargo', 'pytest'] : [process.argv[only + 1] ?? ''];
  const projects = [
    ...(kinds.includes('cargo') ? [await createRustCrate(workDir)] : []),
    ...(kinds.includes('pytest') ? [await createPytestProject(workDir)] : []),
  ];
  // A root server's runs have an identity of their own: give them the workspace, as the server
  // gives them a task's worktree, so the warm build cache is theirs to use; it goes back to its
  // owner at the end (git and the other benchmarks refuse a repository someone else owns).
  const identity = sandboxIdentity();
  const owners = new Map<string, string>();
  for (const project of projects) {
    await ensureGitRepo(project.dir);
    await runIn(project.dir, project.command, env);
    await rewarm(project, env);
    if (identity !== null) {
      const { uid, gid } = await stat(project.dir);
      owners.set(project.dir, `${uid}:${gid}`);
      await execa('chown', ['-R', `${identity.uid}:${identity.gid}`, project.dir]);
    }
  }
  try {
    await measure(projects);
  } finally {
    for (const [dir, owner] of owners) await execa('chown', ['-R', owner, dir]);
  }
}

async function measure(projects: readonly BenchProject[]): Promise<void> {
  const runner = await createShadowRunner({
    dataDir: path.join(workDir, 'data-canary'),
    mode: 'overlay',
  });
  const rows: string[] = [];
  let totals = { canaries: 0, none: 0 };
  // With/without of the same round, next to each other: a load spike on a shared machine moves
  // both, so the median of these ratios is steadier than a ratio of medians.
  const pairs: number[] = [];
  for (const project of projects) {
    for (let index = 0; index < project.hypotheses.length; index += 1) {
      await once(runner, project, index, 'canaries'); // warm both ways once, untimed
      await once(runner, project, index, 'none');
      const samples: Record<Variant, number[]> = { canaries: [], none: [] };
      for (let rep = 0; rep < reps; rep += 1) {
        const order: Variant[] = rep % 2 === 0 ? ['canaries', 'none'] : ['none', 'canaries'];
        for (const variant of order) {
          samples[variant].push(await once(runner, project, index, variant));
        }
        const [w, n] = [samples.canaries.at(-1) ?? 0, samples.none.at(-1) ?? 1];
        pairs.push(w / n);
      }
      const [withMs, withoutMs] = [median(samples.canaries), median(samples.none)];
      totals = { canaries: totals.canaries + withMs, none: totals.none + withoutMs };
      const name = project.hypotheses[index]?.name ?? '';
      const row = `${project.kind}/${name}: ${withoutMs.toFixed(0)} ms without, ${withMs.toFixed(0)} ms with canaries (${((withMs / withoutMs - 1) * 100).toFixed(1)}%)`;
      process.stderr.write(`${row}\n`);
      rows.push(row);
    }
  }
  const overall = ((totals.canaries / totals.none - 1) * 100).toFixed(1);
  const paired = ((median(pairs) - 1) * 100).toFixed(1);
  process.stdout.write(
    `${rows.join('\n')}\nall: ${overall}% (sum of medians of ${reps} interleaved runs each); median of ${pairs.length} paired ratios: ${paired}%; load ${os.loadavg()[0]?.toFixed(1)}\n`,
  );
}

await main();
