import { describe, expect, it } from 'vitest';
import { linkTargetProblem } from './link-target';
import { LinkTree, maxLinkHops } from './link-tree';

type Spec = readonly (readonly [path: string, target?: string])[];

/** A tree of files (no target), directories (a trailing `/`) and links (a target). */
function treeOf(spec: Spec): LinkTree {
  const tree = new LinkTree('archive');
  for (const [path, target] of spec) {
    const segments = path.replace(/\/$/, '').split('/');
    if (target !== undefined) tree.addLink(segments, target);
    else tree.add(segments, path.endsWith('/') ? 'dir' : 'file');
  }
  return tree;
}

const refusal = (spec: Spec, root: readonly string[] = []) =>
  treeOf(spec).check(root)?.message ?? 'accepted';

describe('LinkTree: what a link may point at', () => {
  it.each<[string, Spec]>([
    ['a sibling file', [['README.md'], ['docs/readme', '../README.md']]],
    ['a directory', [['shared/eslint.json'], ['config/shared', '../shared']]],
    ['an empty directory entry', [['empty/'], ['e', 'empty']]],
    ['a chain a → b → file', [['f.txt'], ['a', 'b'], ['b', 'f.txt']]],
    ['a file through a directory link', [['real/a.json'], ['cfg', 'real'], ['x', 'cfg/a.json']]],
    ['a target given with ./ and a trailing /', [['d/f'], ['l', './d/']]],
    ['a link met twice on the way', [['d/f'], ['d/g'], ['l', 'd'], ['x', 'l/../l/f']]],
    ['two links to one directory (no cycle)', [['d/f'], ['a', 'd'], ['b', 'd']]],
  ])('accepts %s', (_name, spec) => {
    expect(refusal(spec)).toBe('accepted');
  });

  it.each<[string, Spec, string]>([
    [
      'a target climbing out of the tree',
      [['a/f'], ['a/b', '../../etc']],
      "link 'a/b' points outside the tree (../../etc)",
    ],
    [
      'a chain a → b → ../.. escaping',
      [['f.txt'], ['sub/a', 'b'], ['sub/b', '../..']],
      "link 'sub/b' points outside the tree (../..)",
    ],
    [
      // Naively a/b/c/l/../../t is a/b/t, a real file; through the link it is ../t.
      'an escape only through the chain (.. after a link climbs from its target)',
      [['a/b/t'], ['s/x'], ['a/b/c/l', '../../../s'], ['x', 'a/b/c/l/../../t']],
      "link 'x' points outside the tree (a/b/c/l/../../t)",
    ],
    [
      'a loop a → b → a',
      [
        ['a', 'b'],
        ['b', 'a'],
      ],
      "link 'a' is in a loop of links ('a' → 'b' → 'a')",
    ],
    ['a link to itself', [['a', 'a']], "link 'a' is in a loop of links ('a' → 'a')"],
    [
      'a loop entered from outside it',
      [
        ['x', 'a/f'],
        ['a', 'b'],
        ['b', 'a'],
      ],
      "link 'a' is in a loop of links ('a' → 'b' → 'a')",
    ],
    [
      'a dangling link',
      [['docs/x', 'missing.md']],
      "link 'docs/x' dangles: 'missing.md' is not in the archive",
    ],
    [
      'a link through a file',
      [['f.txt'], ['x', 'f.txt/y']],
      "link 'x' dangles: 'f.txt/y' is not in the archive",
    ],
    [
      'a trailing / on a file',
      [['f.txt'], ['x', 'f.txt/']],
      "link 'x' dangles: 'f.txt/' is not in the archive",
    ],
    [
      'a target differing only by case (Linux is case-sensitive)',
      [['Docs/a'], ['x', 'docs/a']],
      "link 'x' dangles: 'docs/a' is not in the archive",
    ],
    ['a link to the root (.)', [['f'], ['l', '.']], "link 'l' points to the root of the tree (.)"],
    [
      'a link to the root (..)',
      [['sub/f'], ['sub/l', '..']],
      "link 'sub/l' points to the root of the tree (..)",
    ],
    [
      'a link to the root (sub/..)',
      [['sub/f'], ['l', 'sub/..']],
      "link 'l' points to the root of the tree (sub/..)",
    ],
    [
      'a link to the top (..) from the top',
      [['f'], ['l', '..']],
      "link 'l' points outside the tree (..)",
    ],
    [
      'a link to its own directory (.)',
      [['sub/f'], ['sub/l', '.']],
      "link 'sub/l' points to 'sub', a directory that holds it (.)",
    ],
    [
      'a link to a parent directory (../..)',
      [['a/f'], ['a/b/c/l', '../..']],
      "link 'a/b/c/l' points to 'a', a directory that holds it (../..)",
    ],
    [
      'a link to a parent through another link',
      [['a/f'], ['top', 'a'], ['a/b/l', '../../top']],
      "link 'a/b/l' points to 'a', a directory that holds it (../../top)",
    ],
    [
      'directory links that hold each other',
      [['a/f'], ['b/g'], ['a/l', '../b'], ['b/m', '../a']],
      "link 'a/l' is in a cycle of directory links ('a/l' → 'b/m' → 'a/l')",
    ],
  ])('refuses %s', (_name, spec, message) => {
    expect(refusal(spec)).toBe(message);
  });

  it(`accepts a chain of ${maxLinkHops} links and refuses one of ${maxLinkHops + 1}, in any order`, () => {
    const chain = (length: number, reversed: boolean): Spec => {
      const links = Array.from({ length }, (_, i): [string, string] => [
        `l${i}`,
        i === length - 1 ? 'f' : `l${i + 1}`,
      ]);
      return [['f'], ...(reversed ? links.reverse() : links)];
    };
    expect(refusal(chain(maxLinkHops, false))).toBe('accepted');
    expect(refusal(chain(maxLinkHops + 1, false))).toBe(
      `link 'l0' passes through more than ${maxLinkHops} links`,
    );
    // Resolved from the far end first, every link is cached; the hop count still adds up.
    expect(refusal(chain(maxLinkHops + 1, true))).toBe(
      `link 'l0' passes through more than ${maxLinkHops} links`,
    );
  });

  it('refuses a 10,000-link chain without exhausting the stack', () => {
    const links = Array.from({ length: 10_000 }, (_, i): [string, string] => [
      `l${i}`,
      `l${i + 1}`,
    ]);
    expect(refusal([['l10000'], ...links])).toBe(
      `link 'l0' passes through more than ${maxLinkHops} links`,
    );
  });

  it('resolves against the stripped top folder: ../proj/x would name a sibling of DIR', () => {
    const spec: Spec = [['proj/README.md'], ['proj/l', '../proj/README.md']];
    expect(treeOf(spec).singleTopFolder()).toBe('proj');
    expect(refusal(spec, ['proj'])).toBe(
      "link 'proj/l' points outside the tree (../proj/README.md)",
    );
    expect(refusal([['proj/README.md'], ['proj/docs/x', '../README.md']], ['proj'])).toBe(
      'accepted',
    );
    expect(refusal([['proj/README.md'], ['proj/l', '.']], ['proj'])).toBe(
      "link 'proj/l' points to the root of the tree (.)",
    );
  });

  it('strips a single top folder only when it is a directory', () => {
    expect(treeOf([['proj/a'], ['proj/b']]).singleTopFolder()).toBe('proj');
    expect(treeOf([['a'], ['b/c']]).singleTopFolder()).toBeNull();
    expect(treeOf([['only']]).singleTopFolder()).toBeNull();
    expect(treeOf([['l', 'l']]).singleTopFolder()).toBeNull();
  });
});

describe('linkTargetProblem', () => {
  it.each([
    ['/etc/passwd', "link 'l' has an absolute target (/etc/passwd)"],
    ['C:/Windows', "link 'l' has an absolute target (C:/Windows)"],
    ['..\\..\\x', "link 'l' has a backslash in its target (..\\..\\x)"],
    ['', "link 'l' has an empty target"],
    ['a\u0000b', "link 'l' has a control character in its target"],
    ['a\nb', "link 'l' has a control character in its target"],
    ['x'.repeat(4097), "link 'l' has a target longer than 4096 bytes"],
    ['.git', "link 'l' points into .git"],
    ['.git/config', "link 'l' points into .git"],
    ['../.GIT/hooks', "link 'l' points into .git"],
    ['sub/git~1', "link 'l' points into .git"],
    ['../docs/x.md', null],
    ['.github/workflows', null],
  ])('%j → %s', (target, problem) => {
    expect(linkTargetProblem('l', target)).toBe(problem);
  });
});
