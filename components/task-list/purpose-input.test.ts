import { describe, expect, it } from 'vitest';
import { purposeOf } from './purpose-input';

describe('purposeOf', () => {
  it('leaves out empty and blank fields so the server makes the title from the source', () => {
    expect(purposeOf({ title: '', problem: '', issueUrl: '' })).toEqual({});
    expect(purposeOf({ title: '  ', problem: '\n\n ', issueUrl: ' ' })).toEqual({});
  });

  it('trims the title and the link but keeps the Markdown of the problem as typed', () => {
    expect(
      purposeOf({
        title: '  mean() of an empty list ',
        problem: '    code block\n\nText',
        issueUrl: ' https://example.com/issues/1 ',
      }),
    ).toEqual({
      title: 'mean() of an empty list',
      problem: '    code block\n\nText',
      issueUrl: 'https://example.com/issues/1',
    });
  });
});
