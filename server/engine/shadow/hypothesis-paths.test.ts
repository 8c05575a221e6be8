import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAgainstWorkspace, checkHypothesisPaths, pathProblem } from './hypothesis-paths';

describe('pathProblem', () => {
  it.each([
    ['../etc/passwd', "contains a '..' segment"],
    ['src/../../x', "contains a '..' segment"],
    ['/etc/passwd', 'is absolute'],
    ['C:/x', 'is absolute'],
    ['src\\..\\x', 'contains a backslash'],
    ['src/a\nb', 'contains a control character'],
    ['src/a\u0000', 'contains a control character'],
    ['src/\u009bx', 'contains a control character'],
    ['.git/config', 'is inside .git'],
    ['sub/.GIT/hooks/pre-commit', 'is inside .git'],
    ['src//lib.rs', 'is not normalised (empty or "." segment)'],
    ['./src/lib.rs', 'is not normalised (empty or "." segment)'],
    ['src/', 'is not normalised (empty or "." segment)'],
  ])('refuses %j: %s', (p, why) => {
    expect(pathProblem(p)).toBe(why);
  });

  it('accepts ordinary relative paths', () => {
    expect(pathProblem('src/lib.rs')).toBeNull();
    expect(pathProblem('.github/workflows/ci.yml')).toBeNull();
    expect(pathProblem('a.git/x')).toBeNull();
  });
});

describe('checkHypothesisPaths', () => {
  it('names the hypothesis and the path in the error', () => {
    expect(() =>
      checkHypothesisPaths({ name: 'escape', edits: [{ path: '../x', content: '' }], delete: [] }),
    ).toThrow("hypothesis 'escape': path '../x' contains a '..' segment");
  });

  it('refuses a path changed twice and a path nested inside another', () => {
    expect(() =>
      checkHypothesisPaths({ name: 'twice', edits: [{ path: 'a', content: '' }], delete: ['a'] }),
    ).toThrow("hypothesis 'twice': path 'a' appears more than once");
    expect(() =>
      checkHypothesisPaths({
        name: 'nested',
        edits: [
          { path: 'a', content: '' },
          { path: 'a/b', content: '' },
        ],
        delete: [],
      }),
    ).toThrow("path 'a/b' is nested inside 'a', also changed");
  });
});

describe('checkAgainstWorkspace', () => {
  async function workspace(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-paths-'));
    await mkdir(path.join(dir, 'src'));
    await writeFile(path.join(dir, 'src', 'lib.rs'), 'fn main() {}');
    await symlink('/etc', path.join(dir, 'link'));
    await symlink('/etc/passwd', path.join(dir, 'src', 'passwd'));
    return dir;
  }

  it('reports whether a regular file exists', async () => {
    const dir = await workspace();
    await expect(checkAgainstWorkspace(dir, 'h', 'src/lib.rs')).resolves.toBe(true);
    await expect(checkAgainstWorkspace(dir, 'h', 'src/new.rs')).resolves.toBe(false);
    await expect(checkAgainstWorkspace(dir, 'h', 'new/dir/file.rs')).resolves.toBe(false);
  });

  it('refuses writing through a symlinked parent, onto a symlink, a directory, or under a file', async () => {
    const dir = await workspace();
    await expect(checkAgainstWorkspace(dir, 'h', 'link/passwd')).rejects.toThrow(
      "has a symbolic link parent 'link'",
    );
    await expect(checkAgainstWorkspace(dir, 'h', 'src/passwd')).rejects.toThrow(
      'is a symbolic link',
    );
    await expect(checkAgainstWorkspace(dir, 'h', 'src')).rejects.toThrow('is not a regular file');
    await expect(checkAgainstWorkspace(dir, 'h', 'src/lib.rs/x')).rejects.toThrow(
      "has a parent 'src/lib.rs' that is not a directory",
    );
  });
});
