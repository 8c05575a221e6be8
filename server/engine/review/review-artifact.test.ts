import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diffFlags } from './diff-flags';
import { formatPatchMail } from './patch-mail';
import { buildReviewArtifact, verifySha256 } from './review-artifact';

const diff = Buffer.from(
  [
    'diff --git a/tests/test_a.py b/tests/test_a.py',
    'deleted file mode 100644',
    'index 1111111111111111111111111111111111111111..0000000000000000000000000000000000000000',
    '--- a/tests/test_a.py',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-def test_a(): pass',
    '',
  ].join('\n'),
);
const options = { diff, subject: 'Drop a test', date: new Date('2026-11-03T09:00:00Z') };

describe('buildReviewArtifact', () => {
  it('stores the patch mail, the SHA-256 of exactly those bytes and the flags of the diff', () => {
    const artifact = buildReviewArtifact(options);
    expect(artifact.bytes.equals(formatPatchMail(options))).toBe(true);
    expect(artifact.sha256).toBe(createHash('sha256').update(artifact.bytes).digest('hex'));
    expect(artifact.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(artifact.flags).toEqual(diffFlags(diff));
    expect(artifact.flags.deletedTests).toEqual([{ path: 'tests/test_a.py', what: 'file' }]);
    expect(artifact.flags.bytes).toBe(diff.length);
  });

  it('gives the same hash for the same inputs and another for any other subject', () => {
    expect(buildReviewArtifact(options).sha256).toBe(buildReviewArtifact({ ...options }).sha256);
    expect(buildReviewArtifact({ ...options, subject: 'Drop a test.' }).sha256).not.toBe(
      buildReviewArtifact(options).sha256,
    );
  });
});

describe('verifySha256', () => {
  const { bytes, sha256 } = buildReviewArtifact(options);

  it('accepts the digest of the bytes, in either case', () => {
    expect(verifySha256(bytes, sha256)).toBe(true);
    expect(verifySha256(bytes, sha256.toUpperCase())).toBe(true);
  });

  it('rejects the digest when one byte differs', () => {
    const tampered = Buffer.from(bytes);
    const at = tampered.length - 2;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 1, at);
    expect(verifySha256(tampered, sha256)).toBe(false);
    const other = (sha256.startsWith('0') ? '1' : '0') + sha256.slice(1);
    expect(verifySha256(bytes, other)).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['too short', 'ab'],
    ['one digit short', 'a'.repeat(63)],
    ['one digit long', 'a'.repeat(65)],
    ['not hex', 'g'.repeat(64)],
    ['padded', ` ${'a'.repeat(63)}`],
  ])('rejects a malformed digest (%s) without throwing', (_, expected) => {
    expect(verifySha256(bytes, expected)).toBe(false);
  });

  it('rejects a digest that is its hex prefix followed by junk', () => {
    expect(verifySha256(bytes, `${sha256.slice(0, 62)}zz`)).toBe(false);
  });
});
