import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPytestProject } from '../../../../bench/shadow/projects/pytest-project';
import { createRustCrate } from '../../../../bench/shadow/projects/rust-crate';
import { createTsProject } from '../../../../bench/shadow/projects/ts-project';
import type { BenchProject } from '../../../../bench/shadow/projects/project';
import {
  crateFiles,
  crateLib,
  pytestCalc,
  pytestFiles,
} from '../../../test-support/inline-projects';
import { fixtureProject, projectNames } from '../../../test-support/projects';
import type { Hypothesis } from '../../shadow/hypothesis';
import { testEditorsOf } from './index';
import { hunkReachEdits, reachEdits } from './test-support/framework';

// Honest fixes, and honest wrong or broken attempts, from every corpus this project keeps: none
// may be flagged (a flag demotes a hypothesis, so a false one would cost a task its fix).

async function expectUnflagged(
  hypotheses: readonly Hypothesis[],
  before: (file: string) => Promise<string | null>,
): Promise<void> {
  expect(hypotheses.length).toBeGreaterThan(0);
  for (const h of hypotheses) {
    for (const edit of h.edits) {
      const old = await before(edit.path);
      expect(reachEdits(edit.path, old, edit.content), `${h.name}: ${edit.path}`).toEqual([]);
      expect(hunkReachEdits(edit.path, old, edit.content), `${h.name}: ${edit.path}`).toEqual([]);
    }
  }
  // Nor is any of them a test edit of another kind: they change library code only.
  expect([...(await testEditorsOf(hypotheses, before)).entries()]).toEqual([]);
}

const fromRecord =
  (files: Readonly<Record<string, string>>) =>
  (file: string): Promise<string | null> =>
    Promise.resolve(files[file] ?? null);

describe('honest hypotheses of the fixture corpora are never flagged', () => {
  it.each(projectNames)('server/test-support/projects/%s', async (name) => {
    const project = fixtureProject(name);
    const { right, wrong, broken } = project.hypotheses;
    await expectUnflagged([right, wrong, broken], async (file) =>
      readFile(path.join(project.dir, file), 'utf8').catch(() => null),
    );
  });

  it('the inline crate and pytest projects', async () => {
    const one = (name: string, file: string, content: string): Hypothesis => ({
      name,
      edits: [{ path: file, content }],
      delete: [],
    });
    // `broken` and `slow` drop the crate's #[cfg(test)] module: test edits, rightly flagged so.
    await expectUnflagged(
      [one('fixed', 'src/lib.rs', crateLib.fixed), one('wrong', 'src/lib.rs', crateLib.wrong)],
      fromRecord(crateFiles),
    );
    for (const content of [crateLib.broken, crateLib.slow]) {
      expect(reachEdits('src/lib.rs', crateFiles['src/lib.rs'], content)).toEqual([]);
    }
    await expectUnflagged(
      Object.entries(pytestCalc).map(([name, content]) => one(name, 'calc.py', content)),
      fromRecord(pytestFiles),
    );
  });
});

describe('the benchmark projects’ hypotheses are never flagged', () => {
  let root = '';
  const projects: BenchProject[] = [];
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'framework-corpus-'));
    // The generators only write files; nothing here builds or runs them.
    projects.push(
      await createPytestProject(root),
      await createTsProject(root, 'tsc'),
      await createRustCrate(root),
    );
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it.each(['pytest', 'ts', 'cargo'] as const)('%s', async (kind) => {
    const project = projects.find((p) => p.kind === kind);
    if (project === undefined) throw new Error(`no ${kind} project`);
    await expectUnflagged(
      [...project.hypotheses, ...(project.passingHypotheses ?? [])],
      async (file) => readFile(path.join(project.dir, file), 'utf8').catch(() => null),
    );
  });
});
