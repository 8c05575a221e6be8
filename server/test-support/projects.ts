import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { create as createTar } from 'tar';
import { hypothesisSchema, type Hypothesis } from '../engine/shadow/hypothesis';
import { asWorkspace } from './inline-projects';

/**
 * Small real projects for end-to-end tests, each with one bug (one red test at baseline) and three
 * hypotheses kept as JSON next to it (`<name>.right.json`, `<name>.wrong.json`, and
 * `<name>.syntax-error.json` / `<name>.compile-error.json`). The directories under `projects/` are
 * sources only: tests never run in them, they copy or pack them first.
 */
export const projectNames = ['pytest-calc', 'cargo-calc'] as const;
export type ProjectName = (typeof projectNames)[number];

export interface FixtureProject {
  readonly name: ProjectName;
  /** The project's directory in the repository (read only). */
  readonly dir: string;
  /** The task's test command (argv; allowed by the command policy). */
  readonly testCommand: readonly string[];
  /** The same tests run on a plain copy on the host (no sandbox, nothing written to the repo). */
  readonly hostTestCommand: readonly string[];
  readonly hostTestEnv: Readonly<Record<string, string>>;
  readonly tests: { readonly total: number; readonly failingAtBaseline: number };
  /** The file every hypothesis of the fixture replaces. */
  readonly buggyFile: string;
  readonly hypotheses: {
    /** Makes every test pass. */
    readonly right: Hypothesis;
    /** Changes the bug but the failing test still fails. */
    readonly wrong: Hypothesis;
    /** Does not compile (cargo) / does not parse (Python). */
    readonly broken: Hypothesis;
  };
}

export const projectsDir = fileURLToPath(new URL('./projects/', import.meta.url));

/** Build output a copy may hold; never packed, never compared. */
const buildOutput = new Set(['target', '__pycache__', '.pytest_cache']);

const settings: Record<
  ProjectName,
  Omit<FixtureProject, 'name' | 'dir' | 'hypotheses'> & { readonly brokenFile: string }
> = {
  'pytest-calc': {
    testCommand: ['python3', '-m', 'pytest', '-q'],
    hostTestCommand: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
    hostTestEnv: { PYTHONDONTWRITEBYTECODE: '1' },
    tests: { total: 4, failingAtBaseline: 1 },
    buggyFile: 'calc.py',
    brokenFile: 'syntax-error',
  },
  'cargo-calc': {
    testCommand: ['cargo', 'test', '--offline'],
    hostTestCommand: ['cargo', 'test', '--offline', '--locked'],
    hostTestEnv: {},
    tests: { total: 3, failingAtBaseline: 1 },
    buggyFile: 'src/lib.rs',
    brokenFile: 'compile-error',
  },
};

function readHypothesis(file: string): Hypothesis {
  const parsed = hypothesisSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  return { name: parsed.name, edits: parsed.edits, delete: parsed.delete };
}

export function fixtureProject(name: ProjectName): FixtureProject {
  const { brokenFile, ...rest } = settings[name];
  const json = (kind: string): Hypothesis =>
    readHypothesis(path.join(projectsDir, `${name}.${kind}.json`));
  return {
    name,
    dir: path.join(projectsDir, name),
    ...rest,
    hypotheses: { right: json('right'), wrong: json('wrong'), broken: json(brokenFile) },
  };
}

/** The one file a hypothesis writes, by path (the fixtures' hypotheses each edit one file). */
export function editOf(hypothesis: Hypothesis, file: string): string {
  const edit = hypothesis.edits.find((candidate) => candidate.path === file);
  if (edit === undefined) throw new Error(`hypothesis ${hypothesis.name} does not edit ${file}`);
  return edit.content;
}

/**
 * The right fix, slowed down: the code under test first runs `sleep <marker>` (a unique duration
 * such as `60.482913`, so `ps` finds exactly this run's process), then passes as the right fix does.
 */
export function slowHypothesis(
  project: FixtureProject,
  seconds: number,
): { readonly hypothesis: Hypothesis; readonly marker: string } {
  const marker = `${seconds}.${randomInt(100_000, 1_000_000)}`;
  const right = editOf(project.hypotheses.right, project.buggyFile);
  let content: string;
  if (project.name === 'pytest-calc') {
    content = `import subprocess\n\n# Slow on purpose: the run stays busy for a while.\nsubprocess.run(["sleep", "${marker}"], check=True)\n\n${right}`;
  } else {
    const body = '    values.iter().copied().max()\n';
    if (!right.includes(body))
      throw new Error('cargo-calc right fix changed; update slowHypothesis');
    content = right.replace(
      body,
      `    // Slow on purpose: the run stays busy for a while.\n    let _ = std::process::Command::new("sleep").arg("${marker}").status();\n${body}`,
    );
  }
  return {
    hypothesis: {
      name: `slow-${marker.replace('.', '-')}`,
      edits: [{ path: project.buggyFile, content }],
      delete: [],
    },
    marker,
  };
}

async function listFiles(root: string, relative = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.name === '.git') continue; // a worktree's link to its repository, file or directory
    if (entry.isDirectory()) {
      if (!buildOutput.has(entry.name)) files.push(...(await listFiles(root, name)));
    } else {
      files.push(name);
    }
  }
  return files;
}

/**
 * The files of a tree as `relative path → content`, leaving out `.git` and build output (`target`,
 * `__pycache__`, `.pytest_cache`): what a worktree should hold compared with the project.
 */
export async function readTree(root: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  for (const file of await listFiles(root)) {
    tree.set(file, await readFile(path.join(root, file), 'utf8'));
  }
  return tree;
}

/** A fresh copy of the project (no build output) in a new temporary directory; returns its path. */
export async function copyProject(project: FixtureProject): Promise<string> {
  const parent = await mkdtemp(path.join(os.tmpdir(), `sbx-${project.name}-`));
  const target = path.join(parent, project.name);
  await cp(project.dir, target, {
    recursive: true,
    filter: (source) => !buildOutput.has(path.basename(source)),
  });
  await asWorkspace(target);
  return target;
}

/** An archive ready to upload (`UploadFile`-compatible: `path`, `name`, `type`). */
export interface PackedProject {
  /** The temporary directory holding the archive. */
  readonly dir: string;
  /** The .tar.gz file. */
  readonly file: string;
  /** The same, under the name an upload expects. */
  readonly path: string;
  /** Its base name, as an upload's file name. */
  readonly name: string;
  readonly type: 'application/gzip';
  cleanup(): Promise<void>;
}

/** Packs the project's files (paths relative to its root, no build output) into a tar.gz. */
export async function packProject(project: FixtureProject): Promise<PackedProject> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `sbx-${project.name}-archive-`));
  const name = `${project.name}.tar.gz`;
  const file = path.join(dir, name);
  const top = (await readdir(project.dir)).filter((entry) => !buildOutput.has(entry)).sort();
  await createTar(
    {
      gzip: true,
      file,
      cwd: project.dir,
      portable: true,
      filter: (entry) => !entry.split('/').some((segment) => buildOutput.has(segment)),
    },
    top,
  );
  return {
    dir,
    file,
    path: file,
    name,
    type: 'application/gzip',
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
