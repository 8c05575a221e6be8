import { describe, expect, it } from 'vitest';
import type { TestDelta } from '../../engine/shadow';
import { readColumn, type StoredRun } from './column-tests';

const run = (over: Partial<StoredRun> = {}): StoredRun => ({
  passed: 0,
  failed: 0,
  skipped: 0,
  parsed: true,
  buildFailed: false,
  error: null,
  cases: null,
  tests: null,
  ...over,
});

const delta = (over: Partial<TestDelta>): TestDelta => ({
  fixed: [],
  broken: [],
  stillFailing: [],
  missing: [],
  added: [],
  byId: true,
  basis: 'id',
  counts: { fixed: 0, broken: 0, stillFailing: 0, missing: 0, added: 0 },
  ...over,
});

const statuses = (read: ReturnType<typeof readColumn>) =>
  'statuses' in read.tests ? Object.fromEntries(read.tests.statuses) : null;

const reference = run({
  passed: 2,
  failed: 1,
  skipped: 1,
  cases: [
    { id: 'p1', status: 'passed' },
    { id: 'p2', status: 'passed' },
    { id: 'f1', status: 'failed' },
    { id: 's1', status: 'skipped' },
  ],
});

describe('readColumn', () => {
  it('reads a kept complete list as facts, every other test missing', () => {
    const read = readColumn(
      run({
        passed: 1,
        failed: 1,
        cases: [
          { id: 'a', status: 'passed' },
          { id: 'b', status: 'failed' },
        ],
      }),
      null,
    );
    expect(read.tests.evidence).toBe('by test');
    expect('complete' in read.tests && read.tests.complete).toBe(true);
    expect(statuses(read)).toEqual({ a: 'pass', b: 'fail' });
  });

  it('says not run, with why, for a failed build, a failed run and no run', () => {
    expect(readColumn(run({ buildFailed: true }), null)).toEqual({
      tests: { evidence: 'not run' },
      note: 'the build failed: no test ran',
    });
    expect(readColumn(run({ error: 'cancelled' }), null).note).toBe('cancelled');
    expect(readColumn(null, null).tests.evidence).toBe('not run');
  });

  it('keeps a totals-only run unknown, never guessing its tests from its counts', () => {
    const read = readColumn(run({ passed: 3, failed: 1, cases: [] }), reference);
    expect(read).toEqual({
      tests: { evidence: 'totals only' },
      note: 'the runner printed totals only',
    });
  });

  it('reads a list of failures only as failures, the rest unknown', () => {
    const read = readColumn(
      run({ passed: 5, failed: 1, cases: [{ id: 'x', status: 'failed' }] }),
      null,
    );
    expect(read.tests.evidence).toBe('failures only');
    expect(statuses(read)).toEqual({ x: 'fail' });
  });

  it('derives an old run from its reference and an id delta, leaving unnamed skips unknown', () => {
    const old = run({
      passed: 2,
      failed: 1,
      tests: delta({ fixed: ['f1'], broken: ['p1'], missing: ['p2'], added: ['n1'] }),
    });
    const read = readColumn(old, reference);
    expect(read.tests.evidence).toBe('derived');
    expect(statuses(read)).toEqual({ p1: 'fail', p2: 'missing', f1: 'pass', n1: 'pass' });
  });

  it('refuses to derive when the delta does not add up against the reference', () => {
    const old = run({ passed: 7, failed: 0, tests: delta({ fixed: ['f1'] }) });
    const read = readColumn(old, reference);
    expect(read.tests.evidence).toBe('unknown');
    expect(read.note).toMatch(/does not add up/);
  });

  it('says per-test results were not kept for an old run with a delta by totals', () => {
    const old = run({ passed: 3, failed: 0, tests: delta({ byId: false, basis: 'totals' }) });
    const read = readColumn(old, reference);
    expect(read.tests.evidence).toBe('unknown');
    expect(read.note).toMatch(/not kept/);
  });

  it('reads an inferred delta as the failures it names', () => {
    const old = run({
      passed: 3,
      failed: 1,
      tests: delta({ byId: false, basis: 'inferred', stillFailing: ['f9'] }),
    });
    expect(statuses(readColumn(old, reference))).toEqual({ f9: 'fail' });
  });
});
