/**
 * The git-diff parser shared by the review flags, the patch mail and the review UI. Pure, with no
 * imports at all: the browser bundle reads it through `server/engine/diff.ts`.
 */

/**
 * One line of a hunk: context, removed or added. `newLine` is its number in the new file (0 for
 * removed), `oldLine` its number in the old file (0 for added).
 */
export interface DiffLine {
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
  readonly newLine: number;
  readonly oldLine: number;
  readonly hunk: number;
}

/** One file's section of a git diff. Paths are unquoted, without their `a/`/`b/` prefix. */
export interface DiffFile {
  /** null when the file is created (`/dev/null`). */
  readonly oldPath: string | null;
  /** null when the file is deleted. */
  readonly newPath: string | null;
  readonly oldMode: string | null;
  readonly newMode: string | null;
  readonly status: 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';
  readonly binary: boolean;
  readonly additions: number;
  readonly deletions: number;
  readonly lines: readonly DiffLine[];
  /** The text after each hunk's `@@ … @@` (git's guess at the enclosing function), by hunk. */
  readonly hunkContexts: readonly string[];
}

/** A file of the diff and where its section lies in the diff's lines (`text.split('\n')`). */
export interface DiffSection {
  readonly file: DiffFile;
  /** Whether the section starts at a `diff --git` line (false: a plain unified diff's `---`). */
  readonly git: boolean;
  /** Index of the section's first line. */
  readonly start: number;
  /**
   * Index after its last line: the end of its last hunk, or of its header when it has none. A mail
   * signature (`-- `) or anything else that is neither header nor hunk is left out.
   */
  readonly end: number;
}

interface FileBuilder {
  git: boolean;
  start: number;
  end: number;
  /** Set at the first line that cannot belong to the section: `end` stays where it is. */
  sealed: boolean;
  headerA: string | null;
  headerB: string | null;
  oldPath: string | null | undefined;
  newPath: string | null | undefined;
  oldMode: string | null;
  newMode: string | null;
  status: DiffFile['status'] | null;
  binary: boolean;
  additions: number;
  deletions: number;
  lines: DiffLine[];
  hunks: number;
  hunkContexts: string[];
}

const newBuilder = (
  start: number,
  git: boolean,
  headerA: string | null,
  headerB: string | null,
): FileBuilder => ({
  git,
  start,
  end: git ? start + 1 : start,
  sealed: false,
  headerA,
  headerB,
  oldPath: undefined,
  newPath: undefined,
  oldMode: null,
  newMode: null,
  status: null,
  binary: false,
  additions: 0,
  deletions: 0,
  lines: [],
  hunks: 0,
  hunkContexts: [],
});

function finish(file: FileBuilder): DiffSection {
  const oldPath = file.oldPath === undefined ? file.headerA : file.oldPath;
  const newPath = file.newPath === undefined ? file.headerB : file.newPath;
  const status =
    file.status ?? (oldPath === null ? 'added' : newPath === null ? 'deleted' : 'modified');
  return {
    file: {
      oldPath: status === 'added' ? null : (oldPath ?? newPath),
      newPath: status === 'deleted' ? null : (newPath ?? oldPath),
      oldMode: file.oldMode,
      newMode: file.newMode,
      status,
      binary: file.binary,
      additions: file.additions,
      deletions: file.deletions,
      lines: file.lines,
      hunkContexts: file.hunkContexts,
    },
    git: file.git,
    start: file.start,
    end: file.end,
  };
}

const escapes: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  '\\': 92,
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The text between a C-quoted name's quotes, its escapes (octal bytes included) undone as UTF-8. */
function decodeQuoted(body: string): string {
  const bytes: number[] = [];
  let i = 0;
  while (i < body.length) {
    if (body.charAt(i) === '\\') {
      const octal = /^[0-3][0-7]{2}/.exec(body.slice(i + 1, i + 4));
      if (octal !== null) {
        bytes.push(parseInt(octal[0], 8));
        i += 4;
        continue;
      }
      const next = body.charAt(i + 1);
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 2;
      continue;
    }
    const char = String.fromCodePoint(body.codePointAt(i) ?? 0);
    bytes.push(...encoder.encode(char));
    i += char.length;
  }
  return decoder.decode(new Uint8Array(bytes));
}

/** Git's C-style quoted name starting at `start` (a `"`): the name and the index after it. */
function unquoteAt(text: string, start: number): { value: string; end: number } | null {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text.charAt(i);
    if (c === '\\') i += 1;
    else if (c === '"') return { value: decodeQuoted(text.slice(start + 1, i)), end: i + 1 };
  }
  return null;
}

/** Undoes git's C quoting of a whole path (`"caf\303\251.txt"`); a name not in quotes is kept. */
export function unquotePath(name: string): string {
  if (name.length < 2 || !name.startsWith('"') || !name.endsWith('"')) return name;
  return decodeQuoted(name.slice(1, -1));
}

/** `a/x` → `x` (git apply's -p1); `/dev/null` → null. */
function stripPrefix(path: string): string | null {
  if (path === '/dev/null') return null;
  const slash = path.indexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/** A name on a `---`/`+++`/`rename from` line: quoted, or up to a tab (git adds one after spaces). */
function headerName(text: string, prefixed: boolean): string | null {
  let name = text;
  if (text.startsWith('"')) name = unquoteAt(text, 0)?.value ?? text;
  else if (text.includes('\t')) name = text.slice(0, text.indexOf('\t'));
  return prefixed ? stripPrefix(name) : name;
}

/**
 * The two names of a `diff --git` line. Unquoted names may hold spaces, so the split is where both
 * halves name the same file (as git does); a rename with spaces is left to `rename from/to`.
 */
function gitHeaderNames(rest: string): { a: string | null; b: string | null } {
  if (rest.startsWith('"')) {
    const a = unquoteAt(rest, 0);
    if (a === null) return { a: null, b: null };
    const tail = rest.slice(a.end).replace(/^ /, '');
    return { a: stripPrefix(a.value), b: headerName(tail, true) };
  }
  const quotedB = rest.indexOf(' "');
  if (quotedB >= 0) {
    return { a: stripPrefix(rest.slice(0, quotedB)), b: headerName(rest.slice(quotedB + 1), true) };
  }
  for (let space = rest.indexOf(' '); space >= 0; space = rest.indexOf(' ', space + 1)) {
    const a = stripPrefix(rest.slice(0, space));
    const b = stripPrefix(rest.slice(space + 1));
    if (a === b) return { a, b };
  }
  return { a: null, b: null };
}

// `s`: the function context may hold any character, U+2028 included.
const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/s;

/**
 * Splits a git diff (or a `git format-patch` mail, or a plain unified diff) into files. Hunks are
 * read by their line counts, so a removed line that reads `--- x` or a mail signature `-- ` is
 * never mistaken for a header. Never throws: anything it does not understand is skipped.
 */
export function parseDiff(text: string): DiffFile[] {
  return diffSections(text).map((section) => section.file);
}

/** `parseDiff`, with where each file's section lies in the diff's lines. */
export function diffSections(text: string): DiffSection[] {
  const lines = text.split('\n');
  const sections: DiffSection[] = [];
  let file: FileBuilder | null = null;
  let inHeader = false;
  const close = (): void => {
    if (file !== null) sections.push(finish(file));
    file = null;
  };
  let i = 0;
  while (i < lines.length) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (line.startsWith('diff --git ')) {
      close();
      const names = gitHeaderNames(line.slice('diff --git '.length));
      file = newBuilder(i, true, names.a, names.b);
      inHeader = true;
      i += 1;
      continue;
    }
    if (
      !inHeader &&
      line.startsWith('--- ') &&
      (lines[i + 1] ?? '').startsWith('+++ ') &&
      (lines[i + 2] ?? '').startsWith('@@ ')
    ) {
      // A plain unified diff: no `diff --git` line, names on the `---`/`+++` lines only.
      close();
      file = newBuilder(i, false, null, null);
      inHeader = true;
      continue;
    }
    if (file === null) {
      i += 1;
      continue;
    }
    const hunk = hunkHeader.exec(line);
    if (hunk !== null) {
      inHeader = false;
      i = readHunk(lines, i + 1, hunk, file);
      if (!file.sealed) file.end = i;
      continue;
    }
    if (inHeader) readHeaderLine(line, file);
    // The header ends at a signature or a line that only looks like a hunk; hunks at anything else.
    if (!inHeader || line === '-- ' || line.startsWith('@@ ')) file.sealed = true;
    else if (!file.sealed) file.end = i + 1;
    i += 1;
  }
  close();
  return sections;
}

function readHeaderLine(line: string, file: FileBuilder): void {
  const field = (prefix: string): string | null =>
    line.startsWith(prefix) ? line.slice(prefix.length) : null;
  let value: string | null;
  if ((value = field('old mode ')) !== null) file.oldMode = value.trim();
  else if ((value = field('new mode ')) !== null) file.newMode = value.trim();
  else if ((value = field('deleted file mode ')) !== null) {
    file.oldMode = value.trim();
    file.status = 'deleted';
  } else if ((value = field('new file mode ')) !== null) {
    file.newMode = value.trim();
    file.status = 'added';
  } else if ((value = field('rename from ')) !== null) {
    file.oldPath = headerName(value, false);
    file.status = 'renamed';
  } else if ((value = field('rename to ')) !== null) file.newPath = headerName(value, false);
  else if ((value = field('copy from ')) !== null) {
    file.oldPath = headerName(value, false);
    file.status = 'copied';
  } else if ((value = field('copy to ')) !== null) file.newPath = headerName(value, false);
  else if ((value = field('--- ')) !== null) file.oldPath = headerName(value, true);
  else if ((value = field('+++ ')) !== null) file.newPath = headerName(value, true);
  else if ((value = field('index ')) !== null) {
    const mode = /^\S+ (\d{6})$/.exec(value.trim());
    if (mode?.[1] !== undefined) {
      file.oldMode ??= mode[1];
      file.newMode ??= mode[1];
    }
  } else if (line === 'GIT binary patch' || /^Binary files .* differ$/.test(line)) {
    file.binary = true;
  }
}

function readHunk(
  lines: readonly string[],
  start: number,
  header: RegExpExecArray,
  file: FileBuilder,
): number {
  let oldLeft = header[2] === undefined ? 1 : Number(header[2]);
  let newLeft = header[4] === undefined ? 1 : Number(header[4]);
  let oldLine = Number(header[1]);
  let newLine = Number(header[3]);
  const hunk = file.hunks++;
  file.hunkContexts.push(header[5] ?? '');
  let i = start;
  while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
    const line = lines[i] ?? '';
    const kind = line.charAt(0);
    if (kind === ' ' || line === '' || line === '\r') {
      // Some tools strip the space of an empty context line; git apply accepts that too.
      file.lines.push({ kind: ' ', text: line.slice(1), newLine, oldLine, hunk });
      oldLeft -= 1;
      newLeft -= 1;
      oldLine += 1;
      newLine += 1;
    } else if (kind === '-') {
      file.lines.push({ kind: '-', text: line.slice(1), newLine: 0, oldLine, hunk });
      file.deletions += 1;
      oldLeft -= 1;
      oldLine += 1;
    } else if (kind === '+') {
      file.lines.push({ kind: '+', text: line.slice(1), newLine, oldLine: 0, hunk });
      file.additions += 1;
      newLeft -= 1;
      newLine += 1;
    } else if (kind !== '\\') {
      break; // a short hunk: what follows is not this hunk's
    }
    i += 1;
  }
  while (i < lines.length && (lines[i] ?? '').startsWith('\\')) i += 1;
  return i;
}
