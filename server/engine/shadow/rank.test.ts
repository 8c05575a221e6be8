import { describe, expect, it } from 'vitest';
import { isPass, rank, type Rankable } from './rank';

const result = (index: number, overrides: Partial<Rankable> = {}): Rankable => ({
  index,
  exitCode: 0,
  timedOut: false,
  passed: 2,
  failed: 0,
  parsed: true,
  changedLines: 2,
  error: null,
  ...overrides,
});

const names = (ranked: readonly Rankable[]): number[] => ranked.map((r) => r.index);

describe('rank', () => {
  it('puts passes before failures, then fewer failing, more passing, smaller diffs, given order', () => {
    const { ranked, winner } = rank([
      result(0, { exitCode: 101, passed: 0, failed: 2, changedLines: 0 }),
      result(1, { changedLines: 5 }),
      result(2, { exitCode: 101, passed: 1, failed: 1 }),
      result(3, { changedLines: 1 }),
      result(4, { changedLines: 1 }),
      result(5, { passed: 3, changedLines: 9 }),
    ]);
    expect(names(ranked)).toEqual([5, 3, 4, 1, 2, 0]);
    expect(winner?.index).toBe(5);
  });

  it('ranks an unparsed run below parsed runs of the same pass/fail group', () => {
    const { ranked } = rank([
      result(0, { parsed: false, passed: 0, exitCode: 1 }),
      result(1, { exitCode: 1, passed: 0, failed: 9 }),
      result(2, { parsed: false, passed: 0 }),
      result(3, { passed: 1 }),
    ]);
    expect(names(ranked)).toEqual([3, 2, 1, 0]);
  });

  it('ranks a run cut short by a timeout with the unparsed, whatever partial summary it printed', () => {
    const { ranked } = rank([
      result(0, { exitCode: null, timedOut: true, passed: 0, failed: 0 }),
      result(1, { exitCode: 101, passed: 1, failed: 1 }),
      result(2, { exitCode: 1, passed: 0, failed: 0, error: 'sandbox set-up failed: x' }),
    ]);
    expect(names(ranked)).toEqual([1, 0, 2]);
  });

  it('has no winner when the best run did not pass', () => {
    const { winner } = rank([
      result(0, { exitCode: 1, failed: 1 }),
      result(1, { timedOut: true, exitCode: null }),
    ]);
    expect(winner).toBeNull();
  });

  it('never counts a run with a problem, a timeout or failing tests as a pass', () => {
    expect(isPass(result(0, { error: 'left files un-restored' }))).toBe(false);
    expect(isPass(result(0, { timedOut: true }))).toBe(false);
    expect(isPass(result(0, { failed: 1 }))).toBe(false);
    expect(isPass(result(0, { exitCode: 1, failed: 0 }))).toBe(false);
    expect(isPass(result(0, { parsed: false, passed: 0 }))).toBe(true);
  });

  it('ranks a hypothesis that deletes a test below the fix that keeps it', () => {
    const { winner } = rank([
      result(0, { passed: 1, changedLines: 1 }),
      result(1, { passed: 2, changedLines: 3 }),
    ]);
    expect(winner?.index).toBe(1);
  });
});
