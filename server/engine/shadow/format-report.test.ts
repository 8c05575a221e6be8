import { describe, expect, it } from 'vitest';
import { formatReport } from './format-report';
import type { HypothesisResult } from './shadow-report';

const result = (overrides: Partial<HypothesisResult>): HypothesisResult => ({
  name: 'h',
  rank: 1,
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 1000,
  passed: 1,
  failed: 0,
  skipped: 0,
  parsed: true,
  buildFailed: false,
  cases: [],
  tests: null,
  disqualified: null,
  changedLines: 1,
  outputTail: 'the tail',
  error: null,
  ...overrides,
});

describe('formatReport', () => {
  it('names a tampered run in the ranked table and prints its output', () => {
    const reason = 'the failing canary test_abc was reported passing';
    const text = formatReport(
      {
        mode: 'overlay',
        winner: null,
        winnerDiff: null,
        applied: false,
        hypotheses: [
          result({ name: 'forge', tampered: reason, disqualified: `tampered: ${reason}` }),
        ],
      },
      { command: ['pytest'], workspace: '/w' },
    );
    expect(text).toContain(`\n         ! tampered: ${reason}\n`);
    expect(text).toContain('--- output of forge (tail) ---\nthe tail');
  });
});
