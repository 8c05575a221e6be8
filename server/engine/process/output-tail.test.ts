import { describe, expect, it } from 'vitest';
import { OutputTail } from './output-tail';

describe('OutputTail', () => {
  it('returns the exact output when it fits', () => {
    const tail = new OutputTail(4096);
    for (const line of ['one', 'two', 'three']) tail.push(line);
    expect(tail.snapshot()).toEqual({ text: 'one\ntwo\nthree', totalBytes: 14, truncated: false });
  });

  it('keeps the last bytes within the budget when output overflows', () => {
    const tail = new OutputTail(4096);
    for (let i = 0; i < 2000; i += 1) tail.push(`warning: line ${i}`);
    const { text, truncated, totalBytes } = tail.snapshot();
    expect(truncated).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096 + 200);
    expect(text).toContain('warning: line 1999');
    expect(text).not.toContain('warning: line 0\n');
    expect(totalBytes).toBeGreaterThan(30_000);
  });

  it('keeps an early compiler error block even after warnings scroll it out of the tail', () => {
    const tail = new OutputTail(4096);
    tail.push('   Compiling demo v0.1.0');
    tail.push('error[E0308]: mismatched types');
    tail.push(' --> src/lib.rs:2:5');
    tail.push('  |     expected `i32`, found `&str`');
    for (let i = 0; i < 3000; i += 1) tail.push(`warning: unused variable ${i}`);
    tail.push('error: could not compile `demo`');
    const { text } = tail.snapshot();
    expect(text).toContain('error[E0308]: mismatched types');
    expect(text).toContain(' --> src/lib.rs:2:5');
    expect(text).toContain('error: could not compile `demo`');
    expect(text.indexOf('mismatched types')).toBeLessThan(text.indexOf('could not compile'));
    expect(text).not.toContain('   Compiling demo');
  });

  it('bounds the kept error blocks too', () => {
    const tail = new OutputTail(4096);
    for (let i = 0; i < 5000; i += 1) tail.push(`error: failure number ${i}`);
    expect(Buffer.byteLength(tail.snapshot().text)).toBeLessThan(4096 + 300);
  });

  it('cuts a single enormous line', () => {
    const tail = new OutputTail(4096);
    tail.push('x'.repeat(100_000));
    expect(tail.snapshot().text.length).toBeLessThan(1000);
  });

  it('refuses a budget too small to be useful', () => {
    expect(() => new OutputTail(10)).toThrow(/maxBytes must be an integer >= 1024, got 10/);
  });
});
