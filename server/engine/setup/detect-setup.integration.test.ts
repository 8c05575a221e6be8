import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDirectory, initBare } from '../workspace/source-repo';
import { commitSetupTree, detectSetup } from './detect-setup';

describe('commitSetupTree', () => {
  let root: string;
  let gitDir: string;
  let commit: string;
  const bigLock = JSON.stringify({ lockfileVersion: 3, pad: 'x'.repeat(2 * 1024 * 1024) });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-detect-'));
    const project = join(root, 'project');
    await mkdir(join(project, 'sub'), { recursive: true });
    await writeFile(join(project, 'package.json'), '{}\n');
    // Larger than what the editor reads: detection and the cache key still need all of it.
    await writeFile(join(project, 'package-lock.json'), bigLock);
    await writeFile(join(project, 'sub', 'go.mod'), 'module x\n');
    gitDir = join(root, 'source.git');
    await initBare(gitDir);
    commit = await importDirectory(gitDir, project);
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads a commit from the object store, large manifests included', async () => {
    const tree = await commitSetupTree(gitDir, commit);
    expect([...tree.files].sort()).toEqual(['package-lock.json', 'package.json', 'sub/go.mod']);
    expect(await tree.read('package-lock.json')).toBe(bigLock);
    expect(await tree.read('missing.txt')).toBeNull();
    const plan = await detectSetup(tree);
    expect(plan.commands).toEqual([['npm', 'ci', '--no-audit', '--no-fund']]);
  });
});
