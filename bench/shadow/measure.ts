import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runProcess, type ProcessResult } from '../../server/engine/process';
import { handToSandbox, sandboxEnv, sandboxIdentity } from '../../server/engine/sandbox';
import type { Hypothesis, ShadowRunner } from '../../server/engine/shadow';
import type { BenchProject } from './projects/project';

/** One timed run: wall time as the caller sees it, and the command's own exit code. */
export interface Sample {
  readonly ms: number;
  readonly exitCode: number | null;
  /** The command's process time (spawn to exit) when known, without set-up and clean-up. */
  readonly processMs: number | null;
  /** CPU seconds of the command and its children (user, system), from `/usr/bin/time`. */
  readonly cpu: Cpu | null;
}

export interface Cpu {
  readonly user: number;
  readonly sys: number;
}

const cpuMarker = 'BENCH-CPU';

/**
 * The command wrapped in `/usr/bin/time`, which reports the CPU time of the command and everything
 * it waited for. On a shared machine CPU time is steadier than wall time, and system time shows
 * the kernel's share (copy-up happens in the system calls of the process that writes).
 */
export function withCpuTime(argv: readonly string[]): string[] {
  return ['/usr/bin/time', '-f', `${cpuMarker} %U %S`, ...argv];
}

export function cpuFrom(output: string): Cpu | null {
  const match = new RegExp(`^${cpuMarker} ([\\d.]+) ([\\d.]+)$`, 'm').exec(output);
  return match === null ? null : { user: Number(match[1]), sys: Number(match[2]) };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

const timeoutMs = 10 * 60 * 1000;

/**
 * The environment every run gets, in place or in a shadow: the engine's own allowlist (PATH,
 * LANG, toolchain locations), with HOME and TMPDIR in a scratch directory.
 */
export async function runEnv(
  workDir: string,
  extra: Readonly<Record<string, string>> = {},
): Promise<Record<string, string>> {
  const home = path.join(workDir, 'home-inplace');
  await mkdir(home, { recursive: true });
  return sandboxEnv({ home, tmpdir: home, extra });
}

/** Runs a command in the workspace itself, through the engine's process runner. */
export async function runIn(
  dir: string,
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<ProcessResult> {
  const [file, ...args] = argv;
  if (file === undefined) throw new Error('empty command');
  return runProcess(file, args, { cwd: dir, env, timeoutMs, tailBytes: 16 * 1024 });
}

/**
 * Untimed: brings the workspace's build cache back to the files as they are on disk, then hands
 * the workspace to the sandbox's identity, as a task's worktree is: runs go as an unprivileged
 * uid, which could not write (nor copy up) the build outputs a root-run warm-up left.
 */
export async function rewarm(
  project: BenchProject,
  env: Readonly<Record<string, string>>,
): Promise<void> {
  const result = await runIn(project.dir, project.warmCommand, env);
  if (result.exitCode !== 0) {
    throw new Error(`warming ${project.kind} failed (${result.exitCode}):\n${result.output.text}`);
  }
  await handToSandbox(project.dir, sandboxIdentity());
}

/**
 * The baseline: what an agent does today. Writes the hypothesis into the workspace, runs the same
 * command with the same environment against the same warm cache, and writes the old contents back
 * (as `git checkout -- file` would: new mtime, so the next build sees the revert).
 */
export async function inPlaceRun(
  project: BenchProject,
  hypothesis: Hypothesis,
  env: Readonly<Record<string, string>>,
): Promise<Sample> {
  const started = performance.now();
  const originals = await Promise.all(
    hypothesis.edits.map(
      async (e) => [e.path, await readFile(path.join(project.dir, e.path))] as const,
    ),
  );
  let result: ProcessResult;
  try {
    for (const edit of hypothesis.edits)
      await writeFile(path.join(project.dir, edit.path), edit.content);
    result = await runIn(project.dir, withCpuTime(project.command), env);
  } finally {
    for (const [file, content] of originals) await writeFile(path.join(project.dir, file), content);
  }
  return {
    ms: performance.now() - started,
    exitCode: result.exitCode,
    processMs: result.durationMs,
    cpu: cpuFrom(result.output.text),
  };
}

/** One hypothesis in one shadow, through the engine, timed end to end (prepare, run, clean up). */
export async function shadowRun(
  runner: ShadowRunner,
  project: BenchProject,
  hypotheses: readonly Hypothesis[],
  options: { parallel?: number; env?: Readonly<Record<string, string>> } = {},
): Promise<{ ms: number; results: Sample[] }> {
  const { ms, value: report } = await timed(() =>
    runner.run({
      workspace: project.dir,
      command: withCpuTime(project.command),
      hypotheses,
      parallel: options.parallel ?? 1,
      timeoutMs,
      ...(options.env === undefined ? {} : { env: options.env }),
    }),
  );
  const results = hypotheses.map((h) => {
    const outcome = report.hypotheses.find((o) => o.name === h.name);
    if (outcome === undefined) throw new Error(`no outcome for ${h.name}`);
    if (outcome.error !== null)
      throw new Error(`${h.name}: ${outcome.error}\n${outcome.outputTail}`);
    return {
      ms,
      exitCode: outcome.exitCode,
      processMs: outcome.durationMs,
      cpu: cpuFrom(outcome.outputTail),
    };
  });
  return { ms, results };
}

/** Throws unless the shadow and the in-place run of the same change agree on the exit code. */
export function checkSameOutcome(label: string, a: Sample, b: Sample): void {
  if (a.exitCode !== b.exitCode) {
    throw new Error(`${label}: exit codes differ (${String(a.exitCode)} vs ${String(b.exitCode)})`);
  }
}
