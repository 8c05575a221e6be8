import type { PatchFile } from './patch-files';

/** A folder of the files changed, or one file; folders with one sub-folder and no files merge. */
export type FileTreeNode =
  | { readonly kind: 'folder'; readonly name: string; readonly children: readonly FileTreeNode[] }
  | { readonly kind: 'file'; readonly name: string; readonly file: PatchFile };

interface Folder {
  readonly folders: Map<string, Folder>;
  readonly files: { name: string; file: PatchFile }[];
}

/**
 * The files of a diff as a tree, the way review tools list them beside the diff: folders first,
 * then files, each by name; a chain of folders that hold only one folder reads as one
 * (`src/lib/util`).
 */
export function fileTree(files: readonly PatchFile[]): readonly FileTreeNode[] {
  const root: Folder = { folders: new Map(), files: [] };
  for (const file of files) {
    const parts = file.path.split('/');
    const name = parts.pop() ?? file.path;
    let folder = root;
    for (const part of parts) {
      let next = folder.folders.get(part);
      if (next === undefined) {
        next = { folders: new Map(), files: [] };
        folder.folders.set(part, next);
      }
      folder = next;
    }
    folder.files.push({ name, file });
  }
  return nodesOf(root);
}

function nodesOf(folder: Folder): FileTreeNode[] {
  const folders = [...folder.folders.entries()]
    .sort(([a], [b]) => compareNames(a, b))
    .map(([name, sub]): FileTreeNode => {
      let path = name;
      let inner = sub;
      // Merge a folder that holds exactly one folder and no files into its child.
      for (;;) {
        const only = inner.files.length === 0 && inner.folders.size === 1;
        const child = only ? [...inner.folders.entries()][0] : undefined;
        if (child === undefined) break;
        path = `${path}/${child[0]}`;
        inner = child[1];
      }
      return { kind: 'folder', name: path, children: nodesOf(inner) };
    });
  const files = [...folder.files]
    .sort((a, b) => compareNames(a.name, b.name))
    .map(({ name, file }): FileTreeNode => ({ kind: 'file', name, file }));
  return [...folders, ...files];
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
