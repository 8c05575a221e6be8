/**
 * Turns the patch under review (a `git format-patch` mail) into one unified diff per file, for
 * diff2html to render one file at a time, with a size cap: a large diff is shown as a summary and
 * each file is rendered only when asked, so the tab never freezes on thousands of lines.
 */

export interface PatchFile {
  /** Position in the patch; also the anchor of the file in the page. */
  readonly index: number;
  readonly oldPath: string | null;
  readonly newPath: string | null;
  /** The name to show: the new path, or the old one for a deletion. */
  readonly path: string;
  readonly status: 'modified' | 'added' | 'deleted' | 'renamed' | 'copied';
  readonly binary: boolean;
  readonly additions: number;
  readonly deletions: number;
  /** This file's part of the diff: its `diff --git` line up to the end of its last hunk. */
  readonly text: string;
}

export interface PatchPlan {
  readonly files: readonly PatchFile[];
  readonly changedLines: number;
  /** Over the cap: show the summary, render a file when the reviewer opens it. */
  readonly summaryOnly: boolean;
}

/** Changed lines (added + removed) above which the diff is summarised first. */
export const previewLineCap = 3000;

export function planPatch(patch: string, cap = previewLineCap): PatchPlan {
  const files = splitPatch(patch);
  const changedLines = files.reduce((sum, file) => sum + file.additions + file.deletions, 0);
  return { files, changedLines, summaryOnly: changedLines > cap };
}

const hunkHeader = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * Hunks are read by their line counts, so a removed line that reads `--- x` or `diff --git` is
 * never taken for a header, and the mail's signature (`-- ` and git's version) is left out.
 */
export function splitPatch(patch: string): PatchFile[] {
  const lines = patch.split('\n');
  const files: PatchFile[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!(lines[i] ?? '').startsWith('diff --git ')) {
      i += 1;
      continue;
    }
    const start = i;
    const file = { additions: 0, deletions: 0, header: [] as string[] };
    i += 1;
    // Header lines (modes, renames, ---/+++, binary data) up to the first hunk or the next file.
    while (i < lines.length) {
      const line = lines[i] ?? '';
      if (line.startsWith('diff --git ') || line.startsWith('@@ ') || line === '-- ') break;
      file.header.push(line);
      i += 1;
    }
    let end = i;
    for (let hunk = hunkHeader.exec(lines[i] ?? ''); hunk !== null;) {
      let oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      let newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      i += 1;
      while (i < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i]?.startsWith('\\'))) {
        const kind = (lines[i] ?? '').charAt(0);
        if (kind === '+') {
          file.additions += 1;
          newLeft -= 1;
        } else if (kind === '-') {
          file.deletions += 1;
          oldLeft -= 1;
        } else if (kind !== '\\') {
          oldLeft -= 1;
          newLeft -= 1;
        }
        i += 1;
      }
      end = i;
      hunk = hunkHeader.exec(lines[i] ?? '');
    }
    files.push(describe(files.length, lines[start] ?? '', file, lines.slice(start, end)));
  }
  return files;
}

function describe(
  index: number,
  gitLine: string,
  file: { additions: number; deletions: number; header: string[] },
  text: string[],
): PatchFile {
  const field = (prefix: string): string | undefined =>
    file.header.find((line) => line.startsWith(prefix))?.slice(prefix.length);
  const fromGitLine = namesOfGitLine(gitLine.slice('diff --git '.length));
  const minus = field('--- ');
  const plus = field('+++ ');
  let oldPath = field('rename from ') ?? field('copy from ') ?? side(minus) ?? fromGitLine.a;
  let newPath = field('rename to ') ?? field('copy to ') ?? side(plus) ?? fromGitLine.b;
  let status: PatchFile['status'] = 'modified';
  if (field('new file mode ') !== undefined) [status, oldPath] = ['added', null];
  else if (field('deleted file mode ') !== undefined) [status, newPath] = ['deleted', null];
  else if (field('rename from ') !== undefined) status = 'renamed';
  else if (field('copy from ') !== undefined) status = 'copied';
  const binary = file.header.some(
    (line) => line === 'GIT binary patch' || /^Binary files .* differ$/.test(line),
  );
  // A blank line closes a binary patch; the text ends at the last line that belongs to it.
  while (text.length > 1 && text.at(-1) === '') text.pop();
  return {
    index,
    oldPath: oldPath === null ? null : unquote(oldPath),
    newPath: newPath === null ? null : unquote(newPath),
    path: unquote(newPath ?? oldPath ?? ''),
    status,
    binary,
    additions: file.additions,
    deletions: file.deletions,
    text: `${text.join('\n')}\n`,
  };
}

/** `a/x` of a ---/+++ line; undefined for /dev/null (the other side names the file). */
function side(name: string | undefined): string | null | undefined {
  if (name === undefined || name.startsWith('/dev/null')) return undefined;
  const plain = name.startsWith('"') ? unquote(name) : (name.split('\t')[0] ?? name);
  return plain.replace(/^[ab]\//, '');
}

function namesOfGitLine(rest: string): { a: string | null; b: string | null } {
  const match = /^"?a\/(.*?)"? "?b\/(.*?)"?$/.exec(rest);
  return { a: match?.[1] ?? null, b: match?.[2] ?? null };
}

/** Undoes git's C quoting of a path (`"caf\303\251.txt"`). */
export function unquote(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"') || name.length < 2) return name;
  const bytes: number[] = [];
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11 };
  const body = name.slice(1, -1);
  for (let i = 0; i < body.length; i += 1) {
    const char = body.charAt(i);
    if (char !== '\\') {
      bytes.push(...new TextEncoder().encode(char));
      continue;
    }
    const octal = /^[0-3][0-7]{2}/.exec(body.slice(i + 1, i + 4));
    if (octal !== null) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      const next = body.charAt(i + 1);
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
