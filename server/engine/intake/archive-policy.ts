import type { IntakeCaps } from './intake-caps';

/**
 * The path rules shared by zip, tar and the check of a cloned Git tree. A name is rejected, never
 * repaired: whatever a lenient extractor would "fix" is exactly what an attacker relies on.
 */
export type PathRule = 'traversal' | 'absolute' | 'invalid' | 'too-deep' | 'too-long' | 'reserved';

export interface PathViolation {
  readonly rule: PathRule;
  readonly reason: string;
}

export type CheckedPath =
  | { readonly ok: true; readonly segments: readonly string[]; readonly directory: boolean }
  | { readonly ok: false; readonly violation: PathViolation };

type PathCaps = Pick<IntakeCaps, 'maxDepth' | 'maxNameBytes'>;

// C0 controls, DEL and C1 controls: none belongs in a file name and NUL truncates it in C code.
// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;
const driveLetter = /^[A-Za-z]:/;
// Code points HFS+ ignores when comparing names, so `.g\u200cit` is `.git` there (CVE-2014-9390).
const hfsIgnorable = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * The longest one segment may be, in bytes: NAME_MAX of every file system the server writes to.
 * A longer one fails in the kernel (ENAMETOOLONG) mid-extraction, so it is refused up front.
 */
export const maxSegmentBytes = 255;

function violation(rule: PathRule, reason: string): CheckedPath {
  return { ok: false, violation: { rule, reason } };
}

/** True for `.git` in every spelling that some file system or git itself treats as `.git`. */
export function isReservedSegment(segment: string): boolean {
  const folded = segment
    .normalize('NFC')
    .replace(hfsIgnorable, '')
    .toLowerCase()
    .replace(/[. ]+$/, ''); // NTFS drops trailing dots and spaces
  return folded === '.git' || folded === 'git~1';
}

export function checkArchivePath(name: string, caps: PathCaps): CheckedPath {
  if (Buffer.byteLength(name, 'utf8') > caps.maxNameBytes) {
    return violation('too-long', `name is longer than ${caps.maxNameBytes} bytes`);
  }
  if (name.length === 0) return violation('invalid', 'empty name');
  if (controlCharacter.test(name)) return violation('invalid', 'name contains a control character');
  if (name.includes('\\')) return violation('invalid', 'name contains a backslash');
  if (name.startsWith('/') || driveLetter.test(name)) {
    return violation('absolute', 'name is an absolute path');
  }
  const directory = name.endsWith('/');
  const raw = (directory ? name.slice(0, -1) : name).split('/');
  // Archives made with `tar -C dir .` prefix every name with `./`; that prefix is harmless.
  let start = 0;
  while (raw[start] === '.') start += 1;
  const segments = raw.slice(start);
  if (segments.length === 0) return { ok: true, segments, directory: true };
  for (const segment of segments) {
    if (segment === '..') return violation('traversal', 'name contains a `..` segment');
  }
  for (const segment of segments) {
    if (segment === '' || segment === '.') {
      return violation('invalid', 'name contains an empty or `.` segment');
    }
    if (isReservedSegment(segment)) return violation('reserved', 'name contains a `.git` segment');
    if (Buffer.byteLength(segment, 'utf8') > maxSegmentBytes) {
      return violation('too-long', `name has a segment longer than ${maxSegmentBytes} bytes`);
    }
  }
  if (segments.length > caps.maxDepth) {
    return violation('too-deep', `name is nested deeper than ${caps.maxDepth} levels`);
  }
  return { ok: true, segments, directory };
}
