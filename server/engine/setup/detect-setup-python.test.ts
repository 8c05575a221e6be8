import { describe, expect, it } from 'vitest';
import type { SetupTree } from './detect-rule';
import { detectSetup } from './detect-setup';
import { dependencyGroup } from './python-groups';

// What a detected Python setup installs: the project and what its tests need, never the docs or
// dev tools (a docs extra's pins broke an install that the tests did not need).

const tree = (files: Record<string, string>): SetupTree => ({
  files: Object.keys(files),
  read: (path) => Promise.resolve(files[path] ?? null),
});
const pip = '.venv/bin/pip';

const project = `[build-system]
requires = ["setuptools"]

[project]
name = "demo"
version = "0.1"

[project.optional-dependencies]
docs = ["sphinx==1.0"]
dev = ["ruff", "pre-commit"]
testing = ["pytest>=7"]

[dependency-groups]
lint = ["ruff"]
typing = ["mypy"]
Tests = [
  "pytest-cov",  # coverage
  "hypothesis[cli]>=6",
  {include-group = "typing"},
]
`;

describe('detected Python setup: the project and its test extras only', () => {
  it('installs the test extra and the test dependency group; not docs, dev or lint', async () => {
    const plan = await detectSetup(tree({ 'pyproject.toml': project }));
    expect(plan.commands.slice(1)).toEqual([
      [pip, 'install', '-e', '.[testing]'],
      [pip, 'install', 'pytest-cov', 'hypothesis[cli]>=6', 'mypy'],
    ]);
    expect(plan.reasons[0]).toMatch(/\(dependency group Tests\)$/);
    const all = plan.commands.flat().join(' ');
    expect(all).not.toMatch(/sphinx|ruff|pre-commit|docs|dev\b/);
  });

  it('each spelling of a test extra: [test], [tests], [testing]', async () => {
    for (const extra of ['test', 'tests', 'testing']) {
      const text = `[project]\nname = "d"\n[project.optional-dependencies]\n${extra} = ["pytest"]\ndev = ["ruff"]\n`;
      const plan = await detectSetup(tree({ 'pyproject.toml': text }));
      expect(plan.commands.at(-1)).toEqual([pip, 'install', '-e', `.[${extra}]`]);
    }
  });

  it('a project with only dev extras installs itself alone', async () => {
    const text = `[project]\nname = "d"\n[project.optional-dependencies]\ndev = ["pytest", "ruff"]\n`;
    const plan = await detectSetup(tree({ 'pyproject.toml': text }));
    expect(plan.commands.at(-1)).toEqual([pip, 'install', '-e', '.']);
  });

  it('requirements-test*.txt and test-requirements*.txt, never requirements-dev or -docs', async () => {
    const plan = await detectSetup(
      tree({
        'requirements.txt': 'requests\n',
        'requirements-dev.txt': 'ruff\n',
        'requirements-docs.txt': 'sphinx\n',
        'test-requirements-unit.txt': 'pytest\n',
        'tests_requirements.txt': 'pytest-mock\n',
      }),
    );
    expect(plan.commands[1]).toEqual([
      pip,
      'install',
      ...['-r', 'requirements.txt'],
      ...['-r', 'test-requirements-unit.txt', '-r', 'tests_requirements.txt'],
    ]);
    expect(plan.reasons[0]).toMatch(
      /\(requirements-dev\.txt, requirements-docs\.txt not installed\)$/,
    );
  });
});

describe('dependencyGroup', () => {
  it('reads a group with includes, comments and brackets inside strings', () => {
    expect(dependencyGroup(project, 'tests')).toEqual(['pytest-cov', 'hypothesis[cli]>=6', 'mypy']);
    expect(dependencyGroup(project, 'lint')).toEqual(['ruff']);
    expect(dependencyGroup(project, 'absent')).toBeNull();
    expect(dependencyGroup('[project]\nname = "x"\n', 'test')).toBeNull();
  });

  it('an include cycle ends', () => {
    const text =
      '[dependency-groups]\na = ["x", {include-group = "b"}]\nb = [{include-group = "a"}, "y"]\n';
    expect(dependencyGroup(text, 'a')).toEqual(['x', 'y']);
  });
});
