import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson';

describe('wilsonInterval', () => {
  it('matches the textbook value for 1 of 2', () => {
    const { low, high } = wilsonInterval(1, 2);
    expect(low).toBeCloseTo(0.0945, 4);
    expect(high).toBeCloseTo(0.9055, 4);
  });

  it('stays inside [0, 1] at 0/n and n/n and narrows with more trials', () => {
    expect(wilsonInterval(0, 10).low).toBe(0);
    expect(wilsonInterval(0, 10).high).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(10, 10).high).toBeCloseTo(1, 12);
    const few = wilsonInterval(5, 10);
    const many = wilsonInterval(500, 1000);
    expect(many.high - many.low).toBeLessThan(few.high - few.low);
  });

  it('knows nothing without trials and refuses impossible counts', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
  });
});
