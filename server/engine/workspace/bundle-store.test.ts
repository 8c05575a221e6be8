import { describe, expect, it } from 'vitest';
import { bundleChain, type BundleHead } from './bundle-store';

const head = (tipSha: string, baseSha: string | null): BundleHead => ({
  sourceId: 's',
  tipSha,
  baseSha,
});

describe('bundleChain', () => {
  const heads = [head('c2', 'c1'), head('b', null), head('c1', 'b'), head('other', 'b')];

  it('leads from the complete bundle to the tip, oldest first, through parents only', () => {
    expect(bundleChain(heads, 'c2')?.map((h) => h.tipSha)).toEqual(['b', 'c1', 'c2']);
    expect(bundleChain(heads, 'b')?.map((h) => h.tipSha)).toEqual(['b']);
  });

  it('is null when a commit on the way was never stored', () => {
    expect(bundleChain([head('c2', 'c1'), head('b', null)], 'c2')).toBeNull();
    expect(bundleChain(heads, 'unknown')).toBeNull();
  });

  it('is null for rows that loop rather than reach a complete bundle', () => {
    expect(bundleChain([head('x', 'y'), head('y', 'x')], 'x')).toBeNull();
  });
});
