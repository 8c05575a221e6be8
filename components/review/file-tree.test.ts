import { describe, expect, it } from 'vitest';
import { fileTree, type FileTreeNode } from './file-tree';
import type { PatchFile } from './patch-files';

const file = (index: number, path: string): PatchFile => ({
  index,
  oldPath: path,
  newPath: path,
  path,
  status: 'modified',
  binary: false,
  additions: 1,
  deletions: 0,
  text: '',
});

/** A tree in one line: folders as `name/[…]`, files by name and index. */
function brief(nodes: readonly FileTreeNode[]): string {
  return nodes
    .map((node) =>
      node.kind === 'file'
        ? `${node.name}#${node.file.index}`
        : `${node.name}/[${brief(node.children)}]`,
    )
    .join(' ');
}

describe('fileTree', () => {
  it('lists folders first, then files, each by name', () => {
    const tree = fileTree([
      file(0, 'z.py'),
      file(1, 'src/b.py'),
      file(2, 'src/a.py'),
      file(3, 'a.py'),
    ]);
    expect(brief(tree)).toBe('src/[a.py#2 b.py#1] a.py#3 z.py#0');
  });

  it('reads a chain of folders holding one folder each as one', () => {
    const tree = fileTree([
      file(0, 'src/lib/util/x.ts'),
      file(1, 'src/lib/util/y.ts'),
      file(2, 'src/app/main.ts'),
    ]);
    expect(brief(tree)).toBe('src/[app/[main.ts#2] lib/util/[x.ts#0 y.ts#1]]');
  });

  it('keeps a folder that holds files apart from its only sub-folder', () => {
    expect(brief(fileTree([file(0, 'a/b/c.ts'), file(1, 'a/d.ts')]))).toBe('a/[b/[c.ts#0] d.ts#1]');
  });
});
