import { describe, expect, it } from 'vitest';
import { isGoing, progressLine, reportFrameHeight } from './eval-format';
import type { EvalRunProgress } from './eval-types';

const progress: EvalRunProgress = {
  runId: 'eval-0123456789ab',
  set: 'calc.jsonl',
  owner: 'rita',
  model: 'fixer',
  k: 3,
  parallel: 2,
  state: 'running',
  error: null,
  instances: 10,
  instancesDone: 3,
  attempts: 30,
  attemptsDone: 7,
  resolved: 5,
  tokens: 12000,
  costUsd: 0.03125,
  startedAt: '2026-12-06T10:00:00.000Z',
  updatedAt: '2026-12-06T10:05:00.000Z',
};

describe('eval-format', () => {
  it('says how far a run is and what it spent', () => {
    expect(progressLine(progress)).toBe(
      '3/10 instances · 7/30 attempts · 5 resolved · 12,000 tokens · $0.0313',
    );
  });

  it('polls only while a run goes', () => {
    expect(isGoing([{ state: 'done' }, { state: 'running' }])).toBe(true);
    expect(isGoing([{ state: 'done' }, { state: 'stopped' }])).toBe(false);
  });

  it('gives the report frame room for each instance, within a cap', () => {
    expect(reportFrameHeight({ rows: [] })).toBe(640);
    expect(reportFrameHeight({ rows: new Array(1000).fill(null) as never })).toBe(4000);
  });
});
