import { describe, expect, it } from 'vitest';
import { safeNextPath, signInPath } from './next-path';

describe('safeNextPath', () => {
  it('keeps a path on this site, with its query and fragment', () => {
    expect(safeNextPath('/coding/abc')).toBe('/coding/abc');
    expect(safeNextPath('/coding/audit?taskId=t1&username=alice')).toBe(
      '/coding/audit?taskId=t1&username=alice',
    );
    expect(safeNextPath('/coding#review')).toBe('/coding#review');
  });

  it('goes to /coding without a next, or with an empty one', () => {
    expect(safeNextPath(undefined)).toBe('/coding');
    expect(safeNextPath(null)).toBe('/coding');
    expect(safeNextPath('')).toBe('/coding');
  });

  it.each([
    'https://evil.example/coding',
    'http:/evil.example',
    '//evil.example/coding',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    ' /coding',
    'javascript:alert(1)',
    'coding',
    '/%0a/evil.example',
  ])('refuses %j: another site, or not a path', (next) => {
    const kept = safeNextPath(next);
    expect(new URL(kept, 'http://shadowbox.test').origin).toBe('http://shadowbox.test');
    expect(kept.startsWith('//')).toBe(false);
  });

  it('never goes back to the sign-in or set-up page', () => {
    expect(safeNextPath('/sign-in?next=/coding')).toBe('/coding');
    expect(safeNextPath('/setup?token=x')).toBe('/coding');
    expect(safeNextPath('/sign-inside')).toBe('/sign-inside');
  });
});

describe('signInPath', () => {
  it('carries the path, encoded', () => {
    expect(signInPath('/coding/a?x=1')).toBe('/sign-in?next=%2Fcoding%2Fa%3Fx%3D1');
  });
});
