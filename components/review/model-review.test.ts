import { describe, expect, it } from 'vitest';
import { commentsOn, verdictTone, verdictWord } from './model-review';

describe('verdictWord and verdictTone', () => {
  it('says the verdicts in words', () => {
    expect(verdictWord('looks_good')).toBe('looks good');
    expect(verdictWord('concerns')).toBe('concerns');
    expect(verdictWord('unsure')).toBe('unsure');
    expect(verdictWord('needs_work')).toBe('needs work');
  });

  it('treats a verdict it does not know as unsure', () => {
    expect(verdictTone('looks_good')).toBe('good');
    expect(verdictTone('concerns')).toBe('concerns');
    expect(verdictTone('approve')).toBe('unsure');
  });
});

describe('commentsOn', () => {
  it('keeps only the comments on the diff under review', () => {
    const on = (diffSha256: string, comment: string) => ({
      reviewer: 'model-x',
      verdict: 'unsure',
      comment,
      diffSha256,
    });
    const comments = [on('a'.repeat(64), 'old'), on('b'.repeat(64), 'new')];
    expect(commentsOn(comments, 'b'.repeat(64)).map((c) => c.comment)).toEqual(['new']);
    expect(commentsOn(comments, 'c'.repeat(64))).toEqual([]);
  });
});
