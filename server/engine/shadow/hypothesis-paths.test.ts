import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkAgainstWorkspace,
  checkHypothesisAgainst,
  checkHypothesisPaths,
  pathProblem,
  workspaceEntries,
} from './hypothesis-paths';

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
    await writeFile(path.join(dir, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    await symlink('/etc', path.join(dir, 'link'));
    await symlink('/etc/passwd', path.join(dir, 'src', 'passwd'));
    return dir;
  }

  it('reports whether a regular file exists', async () => {
    const dir = await workspace();
    await expect(checkAgainstWorkspace(dir, 'h', 'src/lib.rs')).resolves.toBe(true);
    await expect(checkAgainstWorkspace(dir, 'h', 'src/new.rs')).resolves.toBe(false);
    await expect(checkAgainstWorkspace(dir, 'h', 'new/dir/file.rs')).resolves.toBe(false);
    await expect(checkAgainstWorkspace(dir, 'h', 'src/lib.rs', 'delete')).resolves.toBe(true);
  });

  it('refuses a path whose parent is a file (calc.py/x), naming the hypothesis and the path', async () => {
    const dir = await workspace();
    await expect(checkAgainstWorkspace(dir, 'fix-2', 'calc.py/x')).rejects.toMatchObject({
      code: 'INVALID_HYPOTHESIS',
      message: "hypothesis 'fix-2': 'calc.py/x' cannot be written: its parent 'calc.py' is a file",
      details: { hypothesis: 'fix-2', path: 'calc.py/x' },
    });
    await expect(checkAgainstWorkspace(dir, 'h', 'src/lib.rs/deeper/x')).rejects.toThrow(
      "hypothesis 'h': 'src/lib.rs/deeper/x' cannot be written: its parent 'src/lib.rs' is a file",
    );
    await expect(checkAgainstWorkspace(dir, 'h', 'calc.py/x', 'delete')).rejects.toThrow(
      "hypothesis 'h': 'calc.py/x' cannot be deleted: its parent 'calc.py' is a file",
    );
  });

  it('refuses an edit that would replace a directory, and the deletion of a directory', async () => {
    const dir = await workspace();
    await expect(checkAgainstWorkspace(dir, 'fix-2', 'src')).rejects.toThrow(
      "hypothesis 'fix-2': 'src' cannot be written: it is a directory",
    );
    await expect(checkAgainstWorkspace(dir, 'fix-2', 'src', 'delete')).rejects.toThrow(
      "hypothesis 'fix-2': 'src' cannot be deleted: it is a directory",
    );
  });

  it('refuses writing through a symlinked parent or onto a symlink, and deleting nothing', async () => {
    const dir = await workspace();
    await expect(checkAgainstWorkspace(dir, 'h', 'link/passwd')).rejects.toThrow(
      "hypothesis 'h': 'link/passwd' cannot be written: its parent 'link' is a symbolic link",
    );
    await expect(checkAgainstWorkspace(dir, 'h', 'src/passwd')).rejects.toThrow(
      "hypothesis 'h': 'src/passwd' cannot be written: it is a symbolic link",
    );
    await expect(checkAgainstWorkspace(dir, 'h', 'src/gone.rs', 'delete')).rejects.toThrow(
      "hypothesis 'h': 'src/gone.rs' cannot be deleted: there is no such file",
    );
  });
});

describe('hypotheses and the relative in-tree links intake now accepts', () => {
  // The shape of an accepted archive: a doc and a config directory shared through relative links.
  async function linkedWorkspace(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-links-'));
    await mkdir(path.join(dir, 'shared'));
    await mkdir(path.join(dir, 'docs'));
    await writeFile(path.join(dir, 'README.md'), '# r\n');
    await writeFile(path.join(dir, 'shared', 'tsconfig.json'), '{}\n');
    await symlink('../README.md', path.join(dir, 'docs', 'index.md'));
    await symlink('shared', path.join(dir, 'config'));
    return dir;
  }

  it('refuses editing or deleting a path that is itself a link, even one pointing inside', async () => {
    const dir = await linkedWorkspace();
    await expect(checkAgainstWorkspace(dir, 'h', 'docs/index.md')).rejects.toThrow(
      "hypothesis 'h': 'docs/index.md' cannot be written: it is a symbolic link",
    );
    await expect(checkAgainstWorkspace(dir, 'h', 'docs/index.md', 'delete')).rejects.toThrow(
      "hypothesis 'h': 'docs/index.md' cannot be deleted: it is a symbolic link",
    );
    await expect(checkAgainstWorkspace(dir, 'h', 'config', 'delete')).rejects.toThrow(
      "hypothesis 'h': 'config' cannot be deleted: it is a symbolic link",
    );
  });

  it('refuses writing through an in-tree directory link, also for a new file', async () => {
    const dir = await linkedWorkspace();
    await expect(checkAgainstWorkspace(dir, 'h', 'config/tsconfig.json')).rejects.toThrow(
      "hypothesis 'h': 'config/tsconfig.json' cannot be written: its parent 'config' is a symbolic link",
    );
    await expect(
      checkHypothesisAgainst(
        { name: 'h', edits: [{ path: 'config/new.json', content: '{}' }], delete: [] },
        workspaceEntries(dir),
      ),
    ).rejects.toThrow(
      "hypothesis 'h': 'config/new.json' cannot be written: its parent 'config' is a symbolic link",
    );
    // The real path stays editable.
    await expect(checkAgainstWorkspace(dir, 'h', 'shared/tsconfig.json')).resolves.toBe(true);
  });
});

describe('checkHypothesisAgainst', () => {
  // A workspace described by its files, as a service that reads a listing would see it.
  const files = new Set(['calc.py', 'src/lib.rs']);
  const lookup = (p: string) =>
    Promise.resolve(
      files.has(p)
        ? ('file' as const)
        : [...files].some((f) => f.startsWith(`${p}/`))
          ? ('directory' as const)
          : null,
    );

  it('checks every edit and deletion, in order, and names the first refused', async () => {
    await expect(
      checkHypothesisAgainst(
        {
          name: 'fix-2',
          edits: [
            { path: 'calc.py', content: 'ok' },
            { path: 'calc.py/x', content: 'no' },
          ],
          delete: ['src'],
        },
        lookup,
      ),
    ).rejects.toThrow(
      "hypothesis 'fix-2': 'calc.py/x' cannot be written: its parent 'calc.py' is a file",
    );
    await expect(
      checkHypothesisAgainst({ name: 'rm', edits: [], delete: ['src'] }, lookup),
    ).rejects.toThrow("hypothesis 'rm': 'src' cannot be deleted: it is a directory");
    await expect(
      checkHypothesisAgainst(
        { name: 'ok', edits: [{ path: 'src/new/mod.rs', content: '' }], delete: ['calc.py'] },
        lookup,
      ),
    ).resolves.toBeUndefined();
  });
});
