import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Hypothesis } from '../../../server/engine/shadow';

export type ProjectKind = 'cargo' | 'pytest' | 'ts';

/** A generated project the benchmark measures, and the one-function changes it tries on it. */
export interface BenchProject {
  readonly kind: ProjectKind;
  /** Absolute path of the workspace (the overlay's lower layer). */
  readonly dir: string;
  /** The test command, argv. */
  readonly command: readonly string[];
  /**
   * Brings the workspace's build cache up to date for the files as they are on disk (untimed):
   * after set-up, and after every in-place run.
   */
  readonly warmCommand: readonly string[];
  /** Exactly four hypotheses, each a one-function change in one file. */
  readonly hypotheses: readonly Hypothesis[];
  /**
   * Four distinct hypotheses that all pass, when `hypotheses` are not that (the crate's include a
   * failing one and two alike): what an agent trying four candidate fixes at once sends.
   */
  readonly passingHypotheses?: readonly Hypothesis[];
  readonly stats: ProjectStats;
}

export interface ProjectStats {
  readonly files: number;
  readonly lines: number;
  readonly tests: number;
}

/**
 * Writes a file only when its content differs, so regenerating a project keeps the mtimes (and so
 * the warm build cache) of everything that did not change. Returns whether it wrote.
 */
export async function writeIfChanged(file: string, content: string): Promise<boolean> {
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current === content) return false;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return true;
}

/** Writes a project's files; returns how many lines they hold. */
export async function writeTree(dir: string, files: ReadonlyMap<string, string>): Promise<number> {
  let lines = 0;
  for (const [relative, content] of files) {
    await writeIfChanged(path.join(dir, relative), content);
    lines += content.split('\n').length - 1;
  }
  return lines;
}

/** A hypothesis that replaces one file with `content`. */
export function oneFileHypothesis(name: string, file: string, content: string): Hypothesis {
  return { name, edits: [{ path: file, content }], delete: [] };
}
