import { formatPatch, structuredPatch } from 'diff';
import type { PreparedChange } from './hypothesis';

export interface FileDiff {
  readonly text: string;
  /** Added plus removed lines; a binary change counts as one. */
  readonly changedLines: number;
}

// git's own heuristic: a NUL byte in the first 8000 bytes makes a file binary.
const isBinary = (content: Buffer): boolean => content.subarray(0, 8000).includes(0);

const gitMode = (mode: number): string => ((mode & 0o111) !== 0 ? '100755' : '100644');

/** One file's change in git's unified format (`diff --git` header, /dev/null for creations). */
export function diffChange(change: PreparedChange): FileDiff {
  const { path: p, before, after } = change;
  const oldBytes = before.exists ? before.content : Buffer.alloc(0);
  const newBytes = after ?? Buffer.alloc(0);
  const isCreate = !before.exists;
  const isDelete = after === null;
  if (before.exists && after !== null && before.content.equals(after))
    return { text: '', changedLines: 0 };

  const header = [`diff --git a/${p} b/${p}`];
  if (isCreate) header.push('new file mode 100644');
  if (isDelete && before.exists) header.push(`deleted file mode ${gitMode(before.mode)}`);
  if (isBinary(oldBytes) || isBinary(newBytes)) {
    const from = isCreate ? '/dev/null' : `a/${p}`;
    const to = isDelete ? '/dev/null' : `b/${p}`;
    return {
      text: `${header.join('\n')}\nBinary files ${from} and ${to} differ\n`,
      changedLines: 1,
    };
  }
  const patch = structuredPatch(
    isCreate ? '/dev/null' : `a/${p}`,
    isDelete ? '/dev/null' : `b/${p}`,
    oldBytes.toString('utf8'),
    newBytes.toString('utf8'),
    undefined,
    undefined,
    { context: 3 },
  );
  let changedLines = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines)
      if (line.startsWith('+') || line.startsWith('-')) changedLines += 1;
  }
  // Not marked isGit, formatPatch writes only the ---/+++ lines and hunks; the `diff --git` header
  // with its extended lines (modes) is ours, in git's order.
  const body = formatPatch(patch, {
    includeIndex: false,
    includeUnderline: false,
    includeFileHeaders: true,
  }).replace(/\n+$/, '\n');
  return { text: `${header.join('\n')}\n${body}`, changedLines };
}

export function diffChanges(changes: readonly PreparedChange[]): FileDiff {
  const diffs = [...changes].sort((a, b) => (a.path < b.path ? -1 : 1)).map(diffChange);
  return {
    text: diffs.map((d) => d.text).join(''),
    changedLines: diffs.reduce((sum, d) => sum + d.changedLines, 0),
  };
}
