import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testGit } from '../../test-support/git-fixtures';
import { memoryIo } from '../test-support/memory-io';
import { evalBuildCommand } from './eval-build';

// Local paths are checked before anything runs (no sandbox probe, no data directory).
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-build-cli-'));
  await mkdir(path.join(root, 'plain'));
  await mkdir(path.join(root, 'empty'));
  await testGit(path.join(root, 'empty'), ['init', '-q', '-b', 'main']);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('shadowbox eval build --repo', () => {
  it.each([
    ['missing', "--repo 'missing' is not a directory"],
    ['plain', "--repo 'plain' is not a git repository"],
    ['empty', "--repo 'empty' has no commit at HEAD"],
  ])('exits 2 for %s and writes nothing', async (repo, message) => {
    const io = memoryIo({ cwd: root });
    const code = await evalBuildCommand(
      ['--repo', repo, '--out', 'set.jsonl', '--data-dir', 'data'],
      io,
    );
    expect(code).toBe(2);
    expect(io.err()).toContain(message.replace(/'(\w+)'/, `'${path.join(root, repo)}'`));
    expect((await readdir(root)).sort()).toEqual(['empty', 'plain']);
  });

  it('refuses a Git URL the intake policy refuses, leaving no log and no clone', async () => {
    const io = memoryIo({ cwd: root });
    const code = await evalBuildCommand(
      ['--git', 'http://127.0.0.1/x.git', '--out', 'set.jsonl', '--data-dir', 'data'],
      io,
    );
    expect(code).toBe(2);
    expect(io.err()).toContain('--git refused: URL_SCHEME');
    expect(existsSync(path.join(root, 'set.jsonl.log'))).toBe(false);
    expect(await readdir(path.join(root, 'data', 'eval-builds'))).toEqual([]);
    await rm(path.join(root, 'data'), { recursive: true, force: true });
  });
});
