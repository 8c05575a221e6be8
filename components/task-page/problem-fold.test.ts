import { describe, expect, it } from 'vitest';
import { problemIsLong } from './problem-fold';

describe('problemIsLong', () => {
  it('keeps a short problem open', () => {
    expect(problemIsLong('')).toBe(false);
    expect(problemIsLong('`mean([])` raises ZeroDivisionError.\n\nExpected 0.')).toBe(false);
  });

  it('folds a problem of many characters on one line', () => {
    expect(problemIsLong('x'.repeat(1200))).toBe(false);
    expect(problemIsLong('x'.repeat(1201))).toBe(true);
  });

  it('folds a problem of many short lines', () => {
    expect(problemIsLong(Array.from({ length: 16 }, () => 'a').join('\n'))).toBe(false);
    expect(problemIsLong(Array.from({ length: 17 }, () => 'a').join('\n'))).toBe(true);
  });
});
