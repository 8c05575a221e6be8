// Detection of each runner is also asserted on every captured fixture (fixtures.test.ts); these are
// the rules that decide between several candidates.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectRunner } from './index';

const fixture = (file: string): string =>
  readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8');

describe('detectRunner', () => {
  it('picks the runner whose summary comes last', () => {
    const pytestThenCargoLog = [
      'test result: ok. 9 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
      '========== 2 passed in 0.10s ==========',
    ].join('\n');
    expect(detectRunner(pytestThenCargoLog)).toBe('pytest');
    expect(detectRunner([...pytestThenCargoLog.split('\n')].reverse().join('\n'))).toBe('cargo');
  });

  it('reads a document that starts as XML as JUnit, whatever its captured output says', () => {
    const xml = fixture('pytest-junit.xml');
    expect(xml).toContain('==== 3 passed in 0.12s ====');
    expect(detectRunner(xml)).toBe('junit');
    expect(detectRunner(fixture('vitest-junit.xml'))).toBe('junit');
  });

  it('falls back to JUnit markup inside other text only when nothing else matches', () => {
    expect(detectRunner('Running…\n<testsuite tests="1"><testcase name="a"/></testsuite>')).toBe(
      'junit',
    );
  });

  it('reads `swift test` (XCTest then swift-testing) as xctest, which sums both', () => {
    expect(detectRunner(fixture('xctest-and-swift-testing.handwritten.txt'))).toBe('xctest');
    expect(detectRunner(fixture('swift-testing-mixed.handwritten.txt'))).toBe('swift-testing');
  });

  it('tells node’s TAP reporter from generic TAP by its `# suites` line', () => {
    expect(detectRunner(fixture('node-mixed-tap.txt'))).toBe('node');
    expect(detectRunner(fixture('tap-perl-mixed.txt'))).toBe('tap');
  });

  it('returns null for text without any runner summary', () => {
    expect(detectRunner('error: linking with `cc` failed\n')).toBeNull();
    expect(detectRunner('')).toBeNull();
  });

  it('recognises build failures that print no summary: cargo and maven', () => {
    expect(detectRunner(fixture('cargo-compile-error.txt'))).toBe('cargo');
    expect(detectRunner(fixture('maven-compile-error.txt'))).toBe('maven');
  });

  it('reads libtest’s JSON events as cargo', () => {
    expect(detectRunner(fixture('cargo-workspace-json.txt'))).toBe('cargo');
  });
});
