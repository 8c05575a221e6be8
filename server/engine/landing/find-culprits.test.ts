import { describe, expect, it } from 'vitest';
import { findCulprits } from './find-culprits';

/** A batch whose combinations break exactly when they contain one of `bad` (each a set). */
function batch(members: string[], bad: string[][], passesAlone = true) {
  const tried: string[][] = [];
  return {
    tried,
    search: {
      members,
      passesAlone: () => passesAlone,
      tryMembers: (set: readonly string[]) => {
        tried.push([...set]);
        return Promise.resolve(bad.some((group) => group.every((m) => set.includes(m))));
      },
    },
  };
}

describe('findCulprits', () => {
  it('names the pair that breaks only together', async () => {
    const { search, tried } = batch(['a', 'b', 'c'], [['b', 'c']]);
    expect(await findCulprits(search)).toEqual([['b', 'c']]);
    // Halves first: {a, b} passes, {c} alone is known to pass; then across: {a, c}, {b, c}.
    expect(tried).toEqual([
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
    ]);
  });

  it('names a pair across the halves of a larger batch in a few trials', async () => {
    const members = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const { search, tried } = batch(members, [['b', 'g']]);
    expect(await findCulprits(search)).toEqual([['b', 'g']]);
    expect(tried.length).toBeLessThanOrEqual(8);
  });

  it('names a member that breaks alone once replayed, without suspecting the others', async () => {
    const { search } = batch(['a', 'b', 'c', 'd'], [['c']], false);
    expect(await findCulprits(search)).toEqual([['c']]);
  });

  it('names every culprit when two halves break on their own', async () => {
    const { search } = batch(
      ['a', 'b', 'c', 'd'],
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    );
    expect(await findCulprits(search)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('names a group when no member or pair explains the failure', async () => {
    const { search } = batch(['a', 'b', 'c'], [['a', 'b', 'c']]);
    expect(await findCulprits(search)).toEqual([['a', 'b', 'c']]);
  });

  it('never tries the same combination twice', async () => {
    const { search, tried } = batch(['a', 'b', 'c', 'd', 'e'], [['a', 'e']]);
    await findCulprits(search);
    const keys = tried.map((set) => set.join(','));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
