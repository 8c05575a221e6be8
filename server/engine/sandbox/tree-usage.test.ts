import { link, mkdir, mkdtemp, open, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { settledTreeUsage, treeUsage } from './tree-usage';

async function scratch(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'sbx-usage-'));
}

describe('settledTreeUsage', () => {
  it('measures a small tree in process exactly as du does: blocks, hard links once, links unfollowed', async () => {
    const root = await scratch();
    const tree = path.join(root, 'upper');
    await mkdir(path.join(tree, 'src', 'deep', 'er'), { recursive: true });
    await writeFile(path.join(tree, 'src', 'a.py'), 'x = 1\n'.repeat(2000));
    await writeFile(path.join(tree, 'src', 'deep', 'empty'), '');
    // A hard link (counted once) and a link to a large tree outside (not followed).
    await link(path.join(tree, 'src', 'a.py'), path.join(tree, 'src', 'deep', 'er', 'same.py'));
    await symlink('/usr', path.join(tree, 'usr'));
    // A sparse file: 64 MiB long, 4 KiB written; blocks count, not length.
    const sparse = await open(path.join(tree, 'sparse'), 'w');
    await sparse.write(Buffer.alloc(4096, 1), 0, 4096, 64 * 1024 * 1024);
    await sparse.close();
    const other = path.join(root, 'cache');
    await mkdir(other);
    await writeFile(path.join(other, 'b'), 'b');

    const walked = await settledTreeUsage([tree, other]);
    expect(walked).toEqual(await treeUsage([tree, other]));
    expect(walked.inodes).toBe(10);
    expect(walked.bytes).toBeLessThan(1024 * 1024);
  });

  it('hands a tree larger than its walk budget to du, with the same answer', async () => {
    const tree = await scratch();
    await Promise.all(
      Array.from({ length: 800 }, (_, i) => writeFile(path.join(tree, `f${i}`), `${i}`)),
    );
    const usage = await settledTreeUsage([tree]);
    expect(usage).toEqual(await treeUsage([tree]));
    expect(usage.inodes).toBe(801);
  });
});
