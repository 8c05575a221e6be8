import { describe, expect, it } from 'vitest';
import { llmHypothesisName, slugify } from './names';

describe('slugify', () => {
  it('keeps lowercase letters, digits and single dashes', () => {
    expect(slugify('Fix mean(): use true division!')).toBe('fix-mean-use-true-division');
    expect(slugify('  --already-a-slug--  ')).toBe('already-a-slug');
    expect(slugify('Ça marche à l’école')).toBe('ca-marche-a-l-ecole');
  });

  it('drops path tricks, control and bidi characters and shell syntax', () => {
    expect(slugify('../../etc/passwd')).toBe('etc-passwd');
    expect(slugify('a\u202eb\u0000c; rm -rf /')).toBe('a-b-c-rm-rf');
    expect(slugify('$(touch x)`id`')).toBe('touch-x-id');
  });

  it('is bounded and never empty', () => {
    expect(slugify('x'.repeat(100))).toHaveLength(40);
    expect(slugify(`${'a'.repeat(39)}-b`)).toBe('a'.repeat(39));
    expect(slugify('')).toBe('fix');
    expect(slugify('!!!')).toBe('fix');
    expect(slugify('日本語')).toBe('fix');
  });
});

describe('llmHypothesisName', () => {
  it('is llm-<iteration>-<sample>-<slug>, unique against the names taken', () => {
    const taken = new Set(['llm-2-1-true-division']);
    expect(llmHypothesisName(2, 1, 'True division', taken)).toBe('llm-2-1-true-division-2');
    expect(llmHypothesisName(2, 1, 'true division', taken)).toBe('llm-2-1-true-division-3');
    expect(llmHypothesisName(2, 2, 'true division', taken)).toBe('llm-2-2-true-division');
    expect(taken).toEqual(
      new Set([
        'llm-2-1-true-division',
        'llm-2-1-true-division-2',
        'llm-2-1-true-division-3',
        'llm-2-2-true-division',
      ]),
    );
  });
});
