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

  // The open-redirect corpus: each of these is, or becomes after some parser's normalisation,
  // another host (`//host`, `/\\host`) or a scheme; each falls back to /coding exactly.
  it.each([
    '/.//evil.example/x',
    '/././/evil.example',
    '/..//evil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/\\evil.example',
    '/%2F%2Fevil.example',
    '/%2f/evil.example',
    '/%252F%252Fevil.example',
    '/%5Cevil.example',
    '/%5cevil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r/evil.example',
    '/%09/evil.example',
    '/%0d%0a/evil.example',
    '/\t\n//evil.example',
    '///evil.example',
    '////evil.example',
    'https://evil.example/',
    'HTTPS://evil.example/',
    '//evil.example',
    'javascript:alert(1)',
    '/javascript:alert(1)//',
    '/%E0%A4%A',
  ])('refuses the redirect %j: /coding instead', (next) => {
    expect(safeNextPath(next)).toBe('/coding');
  });

  it('keeps ordinary paths, query and fragment included, unchanged', () => {
    expect(safeNextPath('/coding/abc?x=1#y')).toBe('/coding/abc?x=1#y');
    expect(safeNextPath('/coding/audit?next=%2F%2Fx')).toBe('/coding/audit?next=%2F%2Fx');
    expect(safeNextPath('/coding/tokens')).toBe('/coding/tokens');
    expect(safeNextPath('/coding/a.b_c-d')).toBe('/coding/a.b_c-d');
    // Except a path too long to be one of ours.
    expect(safeNextPath(`/coding/${'a'.repeat(3000)}`)).toBe('/coding');
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
