import { describe, expect, it } from 'vitest';
import { checkArchivePath, isReservedSegment } from './archive-policy';
import { defaultIntakeCaps } from './intake-caps';
import { PathRegistry } from './path-registry';
import { gitProgressParser } from './git-progress';

const rule = (name: string) => {
  const checked = checkArchivePath(name, defaultIntakeCaps);
  return checked.ok ? 'ok' : checked.violation.rule;
};

describe('checkArchivePath', () => {
  it.each([
    ['src/lib.rs', 'ok'],
    ['./src/lib.rs', 'ok'],
    ['dir/', 'ok'],
    ['a/./b', 'invalid'],
    ['a/../b', 'traversal'],
    ['..', 'traversal'],
    ['/abs', 'absolute'],
    ['c:\\x', 'invalid'],
    ['d:x', 'absolute'],
    ['a\u0085b', 'invalid'],
    ['', 'invalid'],
    ['.git', 'reserved'],
    ['x/.Git /hooks', 'reserved'],
    ['.gitignore', 'ok'],
    ['.github/workflows/ci.yml', 'ok'],
    [`${'a/'.repeat(63)}b`, 'ok'],
    [`${'a/'.repeat(64)}b`, 'too-deep'],
    // 4,096 bytes in all (a directory), then one more; and segments of 254 to 256 bytes.
    [`${'a'.repeat(255)}/`.repeat(16), 'ok'],
    [`${`${'a'.repeat(255)}/`.repeat(16)}b`, 'too-long'],
    ['a'.repeat(255), 'ok'],
    ['a'.repeat(256), 'too-long'],
    [`src/${'é'.repeat(127)}`, 'ok'],
    [`src/${'é'.repeat(128)}`, 'too-long'],
  ])('%j → %s', (name, expected) => {
    expect(rule(name)).toBe(expected);
  });

  it('recognises .git spellings that NTFS/HFS+ fold to .git', () => {
    expect(
      ['.git', '.GIT', '.git.', '.git  ', 'GIT~1', '.g\u200dit', '\ufeff.git'].every(
        isReservedSegment,
      ),
    ).toBe(true);
    expect(['.gitx', 'git', '.git-foo', '.gitmodules'].some(isReservedSegment)).toBe(false);
  });
});

describe('PathRegistry', () => {
  it('allows an explicit directory after files implied it, but not twice', () => {
    const registry = new PathRegistry();
    expect(registry.add(['a', 'b.txt'], 'file')).toBeNull();
    expect(registry.add(['a'], 'dir')).toBeNull();
    expect(registry.add(['a'], 'dir')).toEqual({ kind: 'duplicate', path: 'a' });
  });

  it('reports the earlier spelling on a collision', () => {
    const registry = new PathRegistry();
    registry.add(['Docs', 'x'], 'file');
    expect(registry.add(['docs', 'y'], 'file')).toEqual({
      kind: 'collision',
      path: 'docs',
      existing: 'Docs',
    });
  });
});

describe('gitProgressParser', () => {
  it('parses CR-separated progress split across chunks, once per step', () => {
    const events: unknown[] = [];
    const parse = gitProgressParser((event) => events.push(event));
    parse('Receiving objects:  50% (1/2)\rReceiving obj');
    parse(
      'ects:  50% (1/2)\rReceiving objects: 100% (2/2), done.\nremote: Counting objects: 100% (3/3)\n',
    );
    expect(events).toEqual([
      { type: 'intake.git.progress', phase: 'Receiving objects', percent: 50, done: 1, total: 2 },
      { type: 'intake.git.progress', phase: 'Receiving objects', percent: 100, done: 2, total: 2 },
      { type: 'intake.git.progress', phase: 'Counting objects', percent: 100, done: 3, total: 3 },
    ]);
  });
});
