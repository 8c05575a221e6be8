import { describe, expect, it } from 'vitest';
import { currentStep, gateEvidence, planProgress, type PlanStep } from './plan-evidence';

const run = { green: true, exitCode: 0, commitSha: 'abcdef0123456789', at: '2026-11-02T10:03:00Z' };

describe('gateEvidence', () => {
  it('counts a run on the current checkpoint', () => {
    expect(gateEvidence({ ...run, current: true })).toEqual({
      tone: 'green',
      text: 'green on the current checkpoint',
    });
    expect(gateEvidence({ ...run, green: false, exitCode: 2, current: true })).toEqual({
      tone: 'red',
      text: 'red on the current checkpoint (exit 2)',
    });
    expect(gateEvidence({ ...run, green: false, exitCode: null, current: true }).text).toBe(
      'red on the current checkpoint (no exit code)',
    );
  });

  it('calls an older run stale, green or not', () => {
    expect(gateEvidence({ ...run, current: false })).toEqual({
      tone: 'stale',
      text: 'stale: last ran on abcdef012345, before the last write',
    });
    expect(gateEvidence({ ...run, green: false, commitSha: null, current: false }).text).toBe(
      'stale: last ran, before the last write',
    );
  });

  it('says when a gate never ran', () => {
    expect(gateEvidence(null)).toEqual({ tone: 'none', text: 'not run yet' });
  });
});

describe('currentStep and planProgress', () => {
  const step = (index: number, status: 'open' | 'done'): PlanStep => ({
    index,
    title: `Step ${index}`,
    scope: '',
    status,
    doneAt: status === 'done' ? '2026-11-02T10:04:00Z' : null,
    gates: [],
  });

  it('marks the first open step', () => {
    expect(currentStep([step(1, 'done'), step(2, 'open'), step(3, 'open')])).toBe(2);
    expect(currentStep([step(1, 'done')])).toBeNull();
    expect(currentStep([])).toBeNull();
  });

  it('counts the steps done', () => {
    expect(planProgress([step(1, 'done'), step(2, 'open')])).toBe('1 of 2 steps done');
    expect(planProgress([step(1, 'open')])).toBe('0 of 1 step done');
  });
});
