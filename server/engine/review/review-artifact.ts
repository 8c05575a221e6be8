import { createHash, timingSafeEqual } from 'node:crypto';
import { diffFlags, type DiffFlags } from './diff-flags';
import { formatPatchMail, type PatchMailOptions } from './patch-mail';

/** What is stored for review: the patch mail's exact bytes, their hash, and the diff's flags. */
export interface ReviewArtifact {
  readonly bytes: Buffer;
  /** Lower-case hex SHA-256 of `bytes`: what an approval is bound to. */
  readonly sha256: string;
  /** Flags of the diff inside the mail (`flags.bytes` counts the diff, not the mail). */
  readonly flags: DiffFlags;
}

export const sha256Hex = (bytes: Uint8Array): string =>
  createHash('sha256').update(bytes).digest('hex');

export function buildReviewArtifact(options: PatchMailOptions): ReviewArtifact {
  const bytes = formatPatchMail(options);
  return { bytes, sha256: sha256Hex(bytes), flags: diffFlags(options.diff) };
}

const hexDigest = /^[0-9a-f]{64}$/i;

/**
 * Whether `bytes` hash to `expected` (64 hex digits, either case). The digests are compared in
 * constant time; a malformed `expected` is simply not a match.
 */
export function verifySha256(bytes: Uint8Array, expected: string): boolean {
  if (typeof expected !== 'string' || !hexDigest.test(expected)) return false;
  const actual = createHash('sha256').update(bytes).digest();
  return timingSafeEqual(actual, Buffer.from(expected, 'hex'));
}
