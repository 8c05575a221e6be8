import { isReservedSegment } from './archive-policy';

/** Longest link target accepted, in bytes (Linux's PATH_MAX); also bounds what is read for one. */
export const maxLinkTargetBytes = 4096;

// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;
const driveLetter = /^[A-Za-z]:/;

/**
 * Why a link's target is refused on its own, before the tree it lives in is known: it must be a
 * short, relative, '/'-separated path that never names `.git`. Returns null for a target that may
 * be resolved against the tree. `link` is the link's own path, for the message.
 */
export function linkTargetProblem(link: string, target: string): string | null {
  if (target.length === 0) return `link '${link}' has an empty target`;
  if (Buffer.byteLength(target, 'utf8') > maxLinkTargetBytes) {
    return `link '${link}' has a target longer than ${maxLinkTargetBytes} bytes`;
  }
  if (controlCharacter.test(target)) return `link '${link}' has a control character in its target`;
  if (target.includes('\\')) return `link '${link}' has a backslash in its target (${target})`;
  if (target.startsWith('/') || driveLetter.test(target)) {
    return `link '${link}' has an absolute target (${target})`;
  }
  if (target.split('/').some(isReservedSegment)) return `link '${link}' points into .git`;
  return null;
}
