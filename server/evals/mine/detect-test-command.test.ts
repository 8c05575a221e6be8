import { describe, expect, it } from 'vitest';
import { detectTestCommand } from './detect-test-command';

const tree = (files: Record<string, string>) => ({
  files: Object.keys(files),
  read: (path: string) => Promise.resolve(files[path] ?? null),
});

describe('detectTestCommand', () => {
  it.each([
    [{ 'Cargo.toml': '', 'src/lib.rs': '' }, ['cargo', 'test']],
    [{ 'go.mod': '', 'x_test.go': '' }, ['go', 'test', './...']],
    [{ 'pyproject.toml': '', 'pkg/a.py': '' }, ['python3', '-m', 'pytest', '-q']],
    [{ 'calc.py': '', 'tests/test_calc.py': '' }, ['python3', '-m', 'pytest', '-q']],
    [{ 'package.json': '{"scripts":{"test":"vitest run"}}' }, ['npm', 'test']],
  ])('finds the usual runner of %j', async (files, argv) => {
    expect((await detectTestCommand(tree(files)))?.argv).toEqual(argv);
  });

  it.each([
    [{ 'package.json': '{"scripts":{"build":"tsc"}}' }],
    [{ 'package.json': 'not json' }],
    [{ 'README.md': '' }],
  ])('finds none in %j', async (files) => {
    expect(await detectTestCommand(tree(files))).toBeNull();
  });
});
