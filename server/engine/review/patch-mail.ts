import { AppError } from '../../errors/app-error';
import { parseDiff, type DiffFile } from './git-diff';

export interface PatchMailOptions {
  /** The exact bytes of a git diff (`git diff --binary --full-index`), copied unchanged. */
  readonly diff: Buffer;
  readonly subject: string;
  readonly body?: string | undefined;
  /** The author date; written in UTC, so the bytes do not depend on the machine's time zone. */
  readonly date: Date;
  /** The commit the diff ends at (full id); 40 zeros when absent, as `git format-patch --zero-commit`. */
  readonly commit?: string | undefined;
}

/** The fixed author of every patch mail: Shadowbox wrote the change, a human approves it. */
export const PATCH_AUTHOR = 'Shadowbox <shadowbox@localhost.invalid>';
export const PATCH_SIGNATURE = 'shadowbox';
const FALLBACK_SUBJECT = 'Shadowbox change';
const MAX_SUBJECT = 200;

// Controls (tab and newline too: a subject is one line), bidi and zero-width format characters,
// line/paragraph separators and tag characters: nothing in the mail text may be invisible.
const invisible =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

/** One line: whitespace runs (newlines included) become one space, invisible characters go. */
export function cleanSubject(subject: string): string {
  const line = subject.replace(/\s+/g, ' ').replace(invisible, '').trim();
  // By code point, not grapheme: segmentation rules change with ICU versions, these bytes must not.
  const clipped = Array.from(line).slice(0, MAX_SUBJECT).join('').trim();
  return clipped === '' ? FALLBACK_SUBJECT : clipped;
}

// Lines `git mailinfo` would read as the start of the patch (`---`, `diff -`, `Index: `), as an
// mbox separator (`From `) or as in-body headers (`From:`, `Subject:`, `Date:`); indented by one
// space, they stay part of the message.
const mailStructure = /^(?:---|diff -|Index: |>*From |From:|Subject:|Date:)/i;

/**
 * A commit message's body made safe for mail: no invisible characters, and no line that
 * `git mailinfo` (hence `git am`) would read as the start of the patch or as a header.
 */
export function cleanBody(body: string | undefined): string {
  if (body === undefined) return '';
  const lines = body
    .replace(/\r\n?/g, '\n')
    .replace(invisible, '')
    .split('\n')
    .map((line) => (mailStructure.test(line) ? ` ${line}` : line).trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

/** RFC 2047 "Q" encoded words of at most 75 characters, never splitting a UTF-8 sequence. */
function encodeWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  for (const char of text) {
    const encoded = /^[A-Za-z0-9!*+\-/]$/.test(char)
      ? char
      : char === ' '
        ? '_'
        : [...Buffer.from(char, 'utf8')]
            .map((byte) => `=${byte.toString(16).toUpperCase().padStart(2, '0')}`)
            .join('');
    if (current.length + encoded.length > 63) {
      words.push(`=?UTF-8?q?${current}?=`);
      current = '';
    }
    current += encoded;
  }
  if (current !== '') words.push(`=?UTF-8?q?${current}?=`);
  return words;
}

function subjectHeader(subject: string): string {
  // Plain ASCII stays readable; anything else (or text that would itself decode as an encoded
  // word) is encoded, one word per folded line, as `git format-patch` does.
  const plain = /^[\x20-\x7e]*$/.test(subject) && !subject.includes('=?');
  return `Subject: [PATCH] ${plain ? subject : encodeWords(subject).join('\n ')}`;
}

const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** RFC 2822 date in UTC, e.g. `Tue, 3 Nov 2026 09:05:00 +0000`. */
export function rfc2822Date(date: Date): string {
  if (!Number.isFinite(date.getTime()) || date.getUTCFullYear() < 1970) {
    throw new AppError('INVALID_ARGUMENT', 'patch date must be a valid date after 1970');
  }
  const day = days[date.getUTCDay()] ?? '';
  const month = months[date.getUTCMonth()] ?? '';
  const time = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  return `${day}, ${date.getUTCDate()} ${month} ${date.getUTCFullYear()} ${time} +0000`;
}

const cEscapes: Readonly<Record<number, string>> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
  34: '\\"',
  92: '\\\\',
};

/** A path as git prints it with `core.quotePath`: C-quoted when not plain printable ASCII. */
export function quotePath(path: string): string {
  if (/^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(path)) return path;
  const bytes = [...Buffer.from(path, 'utf8')].map(
    (byte) =>
      cEscapes[byte] ??
      (byte < 0x20 || byte >= 0x7f
        ? `\\${byte.toString(8).padStart(3, '0')}`
        : String.fromCharCode(byte)),
  );
  return `"${bytes.join('')}"`;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** A `git diff --stat --summary`-like block, each line starting with a space. */
export function diffstat(files: readonly DiffFile[]): string[] {
  if (files.length === 0) return [];
  const names = files.map((file) =>
    file.status === 'renamed' || file.status === 'copied'
      ? `${quotePath(file.oldPath ?? '')} => ${quotePath(file.newPath ?? '')}`
      : quotePath(file.newPath ?? file.oldPath ?? ''),
  );
  const counts = files.map((file) =>
    file.binary ? 'Bin' : String(file.additions + file.deletions),
  );
  const nameWidth = Math.max(...names.map((name) => name.length));
  const countWidth = Math.max(...counts.map((count) => count.length));
  const maxChanges = Math.max(...files.map((file) => file.additions + file.deletions));
  const graphWidth = 40;
  // git's linear scale: every non-zero side keeps at least one mark.
  const scale = (n: number): number =>
    maxChanges <= graphWidth || n === 0 ? n : 1 + Math.floor((n * (graphWidth - 1)) / maxChanges);
  const lines = files.map((file, i) => {
    const graph = file.binary
      ? ''
      : '+'.repeat(scale(file.additions)) + '-'.repeat(scale(file.deletions));
    const count = (counts[i] ?? '').padStart(countWidth);
    return ` ${(names[i] ?? '').padEnd(nameWidth)} | ${count} ${graph}`.trimEnd();
  });
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  const summary = [plural(files.length, 'file changed', 'files changed')];
  if (additions > 0 || deletions === 0)
    summary.push(plural(additions, 'insertion(+)', 'insertions(+)'));
  if (deletions > 0 || additions === 0)
    summary.push(plural(deletions, 'deletion(-)', 'deletions(-)'));
  lines.push(` ${summary.join(', ')}`);
  for (const file of files) {
    const path = quotePath(file.newPath ?? file.oldPath ?? '');
    if (file.status === 'added') lines.push(` create mode ${file.newMode ?? '100644'} ${path}`);
    else if (file.status === 'deleted') {
      lines.push(` delete mode ${file.oldMode ?? '100644'} ${path}`);
    } else if (file.oldMode !== null && file.newMode !== null && file.oldMode !== file.newMode) {
      lines.push(` mode change ${file.oldMode} => ${file.newMode} ${path}`);
    }
  }
  return lines;
}

const commitId = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * A `git format-patch`-style mail around the exact diff bytes, accepted by `git am` and by
 * `git apply`. A pure function of its options: the SHA-256 of these bytes is what a reviewer
 * approves, so nothing here may depend on the clock, the locale or the time zone.
 *
 * As with git's own mails, a diff of CRLF files needs `git am --keep-cr` (mailsplit strips every
 * line's CR otherwise); `git apply` takes it as it is. No transfer encoding is used, since that
 * would make the mail unreadable to `git apply` and to a reviewer.
 */
export function formatPatchMail(options: PatchMailOptions): Buffer {
  const commit = options.commit ?? '0'.repeat(40);
  if (!commitId.test(commit)) {
    throw new AppError('INVALID_ARGUMENT', 'patch commit must be a full commit id', {
      details: { commit },
    });
  }
  const { diff } = options;
  if (diff.length > 0 && diff[diff.length - 1] !== 0x0a) {
    throw new AppError('INVALID_ARGUMENT', 'a diff must end with a newline');
  }
  const body = cleanBody(options.body);
  const head = [
    `From ${commit} Mon Sep 17 00:00:00 2001`,
    `From: ${PATCH_AUTHOR}`,
    `Date: ${rfc2822Date(options.date)}`,
    subjectHeader(cleanSubject(options.subject)),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    ...(body === '' ? [] : [body]),
    '---',
    ...diffstat(parseDiff(diff.toString('utf8'))),
    '',
    '',
  ].join('\n');
  return Buffer.concat([
    Buffer.from(head, 'utf8'),
    diff,
    Buffer.from(`-- \n${PATCH_SIGNATURE}\n`, 'utf8'),
  ]);
}
