import { describe, expect, it } from 'vitest';
import { formatRef, interdiffQuerySchema, parseRef } from './interdiff-refs';

describe('interdiff refs', () => {
  it('reads checkpoints, hypotheses by iteration and name, and hypotheses by id', () => {
    expect(parseRef('checkpoint:0')).toEqual({ kind: 'checkpoint', iteration: 0 });
    expect(parseRef('checkpoint:12')).toEqual({ kind: 'checkpoint', iteration: 12 });
    expect(parseRef('hypothesis:2/fix-add')).toEqual({
      kind: 'hypothesis',
      iteration: 2,
      name: 'fix-add',
    });
    // The iteration ends at the first '/': a name may hold more of them, and spaces.
    expect(parseRef('hypothesis:1/a/b c')).toEqual({
      kind: 'hypothesis',
      iteration: 1,
      name: 'a/b c',
    });
    expect(parseRef('hypothesis:cm4abcdefghijklmnopqrstu')).toEqual({
      kind: 'hypothesis-id',
      id: 'cm4abcdefghijklmnopqrstu',
    });
  });

  it('reads nothing else', () => {
    for (const text of [
      '',
      'checkpoint:',
      'checkpoint:-1',
      'checkpoint:1x',
      'hypothesis:0/name',
      'hypothesis:1/',
      'hypothesis:short',
      'HEAD',
      'checkpoint:1 ',
    ]) {
      expect(parseRef(text), text).toBeNull();
    }
  });

  it('writes a ref back as it was read', () => {
    for (const text of [
      'checkpoint:3',
      'hypothesis:2/x/y',
      'hypothesis:cm4abcdefghijklmnopqrstu',
    ]) {
      const ref = parseRef(text);
      expect(ref).not.toBeNull();
      expect(formatRef(ref!)).toBe(text);
    }
  });

  it('refuses a malformed or missing side, naming it and the grammar', () => {
    const result = interdiffQuerySchema.safeParse({ a: 'main', b: undefined });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [
        'a',
        '"main" is not a ref: use checkpoint:<iteration>, hypothesis:<iteration>/<name> or hypothesis:<id>',
      ],
      ['b', 'give a ref: checkpoint:<iteration>, hypothesis:<iteration>/<name> or hypothesis:<id>'],
    ]);
  });
});
