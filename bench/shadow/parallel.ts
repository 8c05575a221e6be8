import { copyFile, mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { execa } from 'execa';
import pLimit from 'p-limit';
import type { SandboxHost } from '../../server/engine/sandbox';
import type { Hypothesis, ShadowRunner } from '../../server/engine/shadow';
import { manualShadow, type CopyUpVariant } from './copy-up';
import { inPlaceRun, median, rewarm, runIn, shadowRun, timed } from './measure';
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

/** The `shadow-run --json` fields the benchmark reads. */
interface CliReport {
  readonly mode: string;
  readonly hypotheses: readonly { name: string; error: string | null; outputTail: string }[];
}

/**
 * The same hypotheses through the command line, as an agent calls it: `node bin/shadowbox.mjs
 * shadow-run SPEC --parallel N --json -- CMD`, timed from spawn to exit (the CLI's start, its
 * probe, the runs and whatever it waits for before exiting).
 */
export function cliWay(
  project: BenchProject,
  parallel: number,
  options: { readonly repoRoot: string; readonly dataDir: string; readonly specDir: string },
): ParallelWay {
  const spec = path.join(options.specDir, `cli-spec-${project.kind}.json`);
  const run = async (): Promise<number> => {
    await writeFile(spec, JSON.stringify({ hypotheses: project.hypotheses }));
    let pid: number | undefined;
    const { ms, value: result } = await timed(() => {
      const subprocess = execa(
        process.execPath,
        [
          path.join(options.repoRoot, 'bin', 'shadowbox.mjs'),
          'shadow-run',
          spec,
          '--workspace',
          project.dir,
          '--data-dir',
          options.dataDir,
          '--mode',
          'overlay',
          '--parallel',
          String(parallel),
          '--json',
          '--',
          ...project.command,
        ],
        { cwd: options.repoRoot, reject: false, stdin: 'ignore' },
      );
      pid = subprocess.pid;
      return subprocess;
    });
    // Untimed: the CLI leaves its shadows' deletion to processes of their own; let them finish
    // before the next measurement, which they would otherwise slow down.
    const shadows = path.join(options.dataDir, 'shadows');
    const leftover = async (): Promise<boolean> =>
      (await readdir(shadows).catch(() => [])).some((e) => e.startsWith(`run-${String(pid)}-`));
    for (let i = 0; i < 600 && (await leftover()); i += 1) await sleep(100);
    const report = JSON.parse(result.stdout) as CliReport;
    for (const h of report.hypotheses) {
      if (h.error !== null) throw new Error(`cli ${h.name}: ${h.error}\n${h.outputTail}`);
    }
    return ms;
  };
  return { upper: 'disk, via the CLI', parallel, run };
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

/**
 * "The limit" (issue 27): the same work with no Shadowbox at all. One plain copy of the workspace
 * per hypothesis (`cp -a`, build outputs included, made before the first timed run), each with its
 * hypothesis written into it, the test command run in all of them at once with the same
 * environment, no sandbox; timed from the first write to the last exit. After each run the copies
 * get their files back and an untimed re-warm, as the in-place baseline does.
 *
 * A copy lives at another path, which rustc's incremental cache is keyed on (its working
 * directory): the copy's first build of a changed file would be a full one, where a shadow (same
 * path) builds incrementally. So each copy is made warm at its own path first: its edited files
 * touched and the warm command run once, untimed.
 */
export function limitWay(
  project: BenchProject,
  hypotheses: readonly Hypothesis[],
  env: Readonly<Record<string, string>>,
  copiesDir: string,
): ParallelWay {
  const copies = hypotheses.map((_, i) =>
    path.join(copiesDir, `${project.kind}-${i + 1}-of-${hypotheses.length}`),
  );
  const edited = [...new Set(hypotheses.flatMap((h) => h.edits.map((e) => e.path)))];
  const warm = async (dir: string): Promise<void> => {
    const result = await runIn(dir, project.warmCommand, env);
    if (result.exitCode !== 0) throw new Error(`warming ${dir} failed:\n${result.output.text}`);
  };
  let made = false;
  const make = async (): Promise<void> => {
    await mkdir(copiesDir, { recursive: true });
    const now = new Date();
    for (const dir of copies) {
      await rm(dir, { recursive: true, force: true });
      await execa('cp', ['-a', project.dir, dir]);
      for (const file of edited) await utimes(path.join(dir, file), now, now);
      await warm(dir);
    }
    made = true;
  };
  const run = async (): Promise<number> => {
    if (!made) await make();
    const { ms, value: results } = await timed(() =>
      Promise.all(
        hypotheses.map(async (hypothesis, i) => {
          const dir = copies[i] ?? '';
          for (const edit of hypothesis.edits) {
            await writeFile(path.join(dir, edit.path), edit.content);
          }
          return runIn(dir, project.command, env);
        }),
      ),
    );
    for (const [i, result] of results.entries()) {
      if (result.exitCode === null) {
        throw new Error(`plain copy ${String(hypotheses[i]?.name)}: no exit code`);
      }
    }
    // Untimed: every copy back to the workspace's files and warm again.
    for (const [i, hypothesis] of hypotheses.entries()) {
      const dir = copies[i] ?? '';
      for (const edit of hypothesis.edits) {
        await copyFile(path.join(project.dir, edit.path), path.join(dir, edit.path));
      }
      await warm(dir);
    }
    return ms;
  };
  return {
    upper: `the limit: ${hypotheses.length} plain cp -a copies`,
    parallel: hypotheses.length,
    run,
  };
}

export interface LimitFigures {
  readonly project: string;
  readonly hypotheses: number;
  readonly limitMs: number;
  readonly limitSamples: readonly number[];
  readonly ways: readonly {
    readonly way: string;
    readonly ms: number;
    readonly samples: readonly number[];
  }[];
}

/**
 * Each way against the limit way, all interleaved in rotating order per repetition (so that
 * neighbours' load falls on every way alike); one untimed warm-up round of every way first.
 */
export async function measureAgainstLimit(
  project: BenchProject,
  limit: ParallelWay,
  ways: readonly ParallelWay[],
  reps: number,
): Promise<LimitFigures> {
  const all = [limit, ...ways];
  for (const way of all) await way.run();
  const samples = all.map(() => [] as number[]);
  for (let rep = 0; rep < reps; rep += 1) {
    for (let k = 0; k < all.length; k += 1) {
      const i = (rep + k) % all.length;
      samples[i]?.push(await (all[i] as ParallelWay).run());
    }
  }
  return {
    project: project.kind,
    hypotheses: limit.parallel,
    limitMs: median(samples[0] ?? []),
    limitSamples: samples[0] ?? [],
    ways: ways.map((way, i) => ({
      way: way.upper,
      ms: median(samples[i + 1] ?? []),
      samples: samples[i + 1] ?? [],
    })),
  };
}
