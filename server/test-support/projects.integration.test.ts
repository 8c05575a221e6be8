import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { list as listTar } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import type { Hypothesis } from '../engine/shadow/hypothesis';
import {
  copyProject,
  editOf,
  fixtureProject,
  packProject,
  projectNames,
  readTree,
  slowHypothesis,
  type FixtureProject,
} from './projects';

/** The fixtures are what the end-to-end suites rely on: check them with the real toolchains. */
const scratch: string[] = [];

afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

async function runTests(project: FixtureProject, hypothesis?: Hypothesis) {
  const dir = await copyProject(project);
  scratch.push(path.dirname(dir));
  for (const edit of hypothesis?.edits ?? []) {
    await writeFile(path.join(dir, edit.path), edit.content);
  }
  const [command = '', ...args] = project.hostTestCommand;
  // An empty CARGO_HOME proves the crate needs no registry.
  const cargoHome = await mkdtemp(path.join(os.tmpdir(), 'sbx-cargo-home-'));
  scratch.push(cargoHome);
  const result = await execa(command, args, {
    cwd: dir,
    env: { ...project.hostTestEnv, CARGO_HOME: cargoHome, CARGO_TERM_COLOR: 'never' },
    reject: false,
    all: true,
  });
  return { exitCode: result.exitCode, output: result.all };
}

describe.each(projectNames)('fixture project %s', (name) => {
  const project = fixtureProject(name);
  const { right, wrong, broken } = project.hypotheses;

  it('has distinct hypotheses that each replace the buggy file', () => {
    const names = [right.name, wrong.name, broken.name];
    expect(new Set(names).size).toBe(3);
    for (const hypothesis of [right, wrong, broken]) {
      expect(hypothesis.edits.map((edit) => edit.path)).toEqual([project.buggyFile]);
    }
  });

  it('fails one test at baseline', async () => {
    const { exitCode, output } = await runTests(project);
    expect(exitCode, output).not.toBe(0);
    expect(output).toMatch(
      name === 'cargo-calc' ? /test result: FAILED\. 2 passed; 1 failed/ : /1 failed, 3 passed/,
    );
  });

  it('passes every test with the right fix', async () => {
    const { exitCode, output } = await runTests(project, right);
    expect(exitCode, output).toBe(0);
    expect(output).toMatch(name === 'cargo-calc' ? /test result: ok\. 3 passed/ : /4 passed/);
  });

  it('still fails with the wrong fix', async () => {
    const { exitCode, output } = await runTests(project, wrong);
    expect(exitCode, output).not.toBe(0);
    expect(output).toMatch(name === 'cargo-calc' ? /1 failed/ : /1 failed, 3 passed/);
  });

  it('does not compile or parse with the broken one', async () => {
    const { exitCode, output } = await runTests(project, broken);
    expect(exitCode, output).not.toBe(0);
    expect(output).toMatch(name === 'cargo-calc' ? /error\[E0308\]/ : /SyntaxError/);
  });

  it('passes, slowly, with the slow variant of the right fix', async () => {
    const { hypothesis, marker } = slowHypothesis(project, 1);
    expect(editOf(hypothesis, project.buggyFile)).toContain(`"${marker}"`);
    const { exitCode, output } = await runTests(project, hypothesis);
    expect(exitCode, output).toBe(0);
  });

  it('packs into a tar.gz of plain files and directories at the root', async () => {
    const packed = await packProject(project);
    scratch.push(packed.dir);
    expect(await readdir(packed.dir)).toEqual([packed.name]);
    const entries: { path: string; type: string }[] = [];
    await listTar({
      file: packed.file,
      onReadEntry: (entry) => {
        entries.push({ path: entry.path, type: entry.type });
      },
    });
    const files = entries.filter((entry) => entry.type === 'File').map((entry) => entry.path);
    expect(files.sort()).toEqual([...(await readTree(project.dir)).keys()].sort());
    expect(entries.every((entry) => ['File', 'Directory'].includes(entry.type))).toBe(true);
    expect(entries.every((e) => !e.path.startsWith('/') && !e.path.includes('..'))).toBe(true);
  });
});
