'use client';

import { useMemo } from 'react';
import { fileTree, type FileTreeNode } from './file-tree';
import type { PatchFile } from './patch-files';

/**
 * The files changed, as a tree beside the diff. Each file links to its place in the diff
 * (`#review-file-N`), which the windowed list scrolls to (see `rowKeyOfHash`).
 */
export function FileTreeNav({ files }: { readonly files: readonly PatchFile[] }) {
  const tree = useMemo(() => fileTree(files), [files]);
  return (
    <nav aria-label="Files changed" className="file-tree">
      <p className="file-tree-count">
        {files.length} {files.length === 1 ? 'file' : 'files'}
      </p>
      <TreeLevel nodes={tree} />
    </nav>
  );
}

function TreeLevel({ nodes }: { readonly nodes: readonly FileTreeNode[] }) {
  return (
    <ul>
      {nodes.map((node) =>
        node.kind === 'folder' ? (
          <li key={`d:${node.name}`} className="file-tree-folder">
            <span className="mono">{node.name}/</span>
            <TreeLevel nodes={node.children} />
          </li>
        ) : (
          <li key={`f:${node.file.index}`}>
            <a
              href={`#review-file-${node.file.index}`}
              className={`mono file-tree-${node.file.status}`}
              title={node.file.path}
            >
              {node.name}
            </a>{' '}
            <span className="file-tree-lines">
              <span className="added">+{node.file.additions}</span>{' '}
              <span className="removed">−{node.file.deletions}</span>
            </span>
          </li>
        ),
      )}
    </ul>
  );
}
