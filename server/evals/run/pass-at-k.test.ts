import { describe, expect, it } from 'vitest';
import { passAtK, passHatK, setRates } from './pass-at-k';

describe('passAtK', () => {
  it('is c/n for k = 1', () => {
    expect(passAtK(3, 1, 1)).toBeCloseTo(1 / 3, 12);
    expect(passAtK(10, 7, 1)).toBeCloseTo(0.7, 12);
  });

  it('matches 1 − C(n−c,k)/C(n,k) on known values', () => {
    // n=5, c=2, k=2: 1 − C(3,2)/C(5,2) = 1 − 3/10.
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    // n=10, c=1, k=5: 1 − C(9,5)/C(10,5) = 1 − 126/252.
    expect(passAtK(10, 1, 5)).toBeCloseTo(0.5, 12);
  });

  it('is 1 when k = n and one attempt resolved, 0 when none did', () => {
    expect(passAtK(3, 1, 3)).toBe(1);
    expect(passAtK(3, 0, 3)).toBe(0);
    expect(passAtK(3, 3, 1)).toBe(1);
  });

  it('refuses k outside 1..n and c outside 0..n', () => {
    expect(() => passAtK(3, 1, 4)).toThrow(/k must be/);
    expect(() => passAtK(3, 4, 1)).toThrow(/c must be/);
    expect(() => passAtK(0, 0, 1)).toThrow(/n must be/);
  });
});

describe('passHatK and setRates', () => {
  it('pass^k needs every one of k attempts resolved', () => {
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(3, 2, 3)).toBe(0);
    expect(passHatK(2, 2, 3)).toBe(0);
  });

  it('averages over instances; pass^k only over instances with k attempts', () => {
    const rates = setRates(
      [
        { n: 3, c: 3 },
        { n: 3, c: 1 },
        { n: 3, c: 0 },
        { n: 0, c: 0 },
      ],
      3,
    );
    expect(rates.passAt1).toBeCloseTo((1 + 1 / 3 + 0) / 3, 12);
    expect(rates.passAtK).toBeCloseTo((1 + 1 + 0) / 3, 12);
    expect(rates.passHatK).toBeCloseTo(1 / 3, 12);
  });

  it('gives 0 for an empty set', () => {
    expect(setRates([], 3)).toEqual({ passAt1: 0, passAtK: 0, passHatK: 0 });
  });
});
