import { describe, expect, it } from 'vitest';
import { checkTaskPurpose, titleFromSource } from './task-title';

const git = (url: string, ref?: string) => ({ kind: 'git' as const, url, ref });

describe('titleFromSource: a title for a task that was given none', () => {
  it.each([
    ['https://github.com/google/uuid.git', undefined, 'uuid'],
    ['https://github.com/google/uuid', 'v1.6.0', 'uuid @ v1.6.0'],
    ['https://git.example.com/team/calc/', undefined, 'calc'],
  ])('%s (ref %s) → %s', (url, ref, title) => {
    expect(titleFromSource(git(url, ref))).toBe(title);
  });

  it("is an archive's file name", () => {
    expect(titleFromSource({ kind: 'archive', file: '/tmp/x', name: 'calc-1.2.tar.gz' })).toBe(
      'calc-1.2.tar.gz',
    );
  });
});

describe('checkTaskPurpose', () => {
  const source = git('https://github.com/google/uuid.git');

  it('keeps a given title, problem and issue link', () => {
    expect(
      checkTaskPurpose({
        source,
        title: '  Version() is off by one  ',
        problem: '`uuid.Version()` returns 13 for a v6 UUID.',
        issueUrl: 'https://github.com/google/uuid/issues/1',
      }),
    ).toEqual({
      title: 'Version() is off by one',
      problem: '`uuid.Version()` returns 13 for a v6 UUID.',
      issueUrl: 'https://github.com/google/uuid/issues/1',
    });
  });

  it('makes the title from the source when none is given', () => {
    expect(checkTaskPurpose({ source })).toEqual({ title: 'uuid', problem: '', issueUrl: null });
  });

  it.each([
    [{ title: '' }, 'title must hold 1 to 200 characters, got 0'],
    [{ title: 'x'.repeat(201) }, 'title must hold 1 to 200 characters, got 201'],
    [{ title: 'two\nlines' }, 'title must be one line of printable text'],
    [
      { problem: 'x'.repeat(64 * 1024 + 1) },
      'problem may hold at most 65536 bytes (64 KB), got 65537',
    ],
    [
      { issueUrl: 'javascript:alert(1)' },
      'issueUrl must be an https:// URL of at most 2048 characters, without credentials',
    ],
    [
      { issueUrl: 'http://example.com/issues/1' },
      'issueUrl must be an https:// URL of at most 2048 characters, without credentials',
    ],
    [
      { issueUrl: 'https://user:token@example.com/issues/1' },
      'issueUrl must be an https:// URL of at most 2048 characters, without credentials',
    ],
    [{ issueUrl: 'not a url' }, 'issueUrl must be an https:// URL, got "not a url"'],
  ])('refuses %j: %s', (input, message) => {
    expect(() => checkTaskPurpose({ source, ...input })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message }),
    );
  });
});
