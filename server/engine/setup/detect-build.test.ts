import { describe, expect, it } from 'vitest';
import { checkBuildCommand, checkSetupCommand } from '../policy';
import type { SetupTree } from './detect-rule';
import { detectSetup } from './detect-setup';

const tree = (files: Record<string, string>): SetupTree => ({
  files: Object.keys(files),
  read: (path) => Promise.resolve(files[path] ?? null),
});

const overridable = 'a buildCommand given with the task replaces it';

describe('detectSetup: the build step of a compiled project (#23: no silent rebuild gap)', () => {
  it('CMake: setup configures and builds into build/, every run rebuilds with cmake --build build', async () => {
    const plan = await detectSetup(tree({ 'CMakeLists.txt': '', 'calc.c': '' }), {
      testCommand: ['ctest', '--test-dir', 'build'],
    });
    expect(plan.commands).toEqual([
      ['cmake', '-S', '.', '-B', 'build'],
      ['cmake', '--build', 'build'],
    ]);
    expect(plan.build).toEqual({
      argv: ['cmake', '--build', 'build'],
      reason: `CMakeLists.txt: setup builds into build/ → before the tests of every run: cmake --build build (${overridable})`,
    });
  });

  it('Meson: meson setup + meson compile into build/, every run rebuilds with meson compile -C build', async () => {
    const plan = await detectSetup(
      tree({ 'meson.build': '', 'meson_options.txt': '', 'src/meson.build': '' }),
    );
    expect(plan.commands).toEqual([
      ['meson', 'setup', 'build'],
      ['meson', 'compile', '-C', 'build'],
    ]);
    expect(plan.outputs).toEqual(['build']);
    expect(plan.manifests).toEqual(['meson.build', 'meson_options.txt', 'src/meson.build']);
    expect(plan.build).toEqual({
      argv: ['meson', 'compile', '-C', 'build'],
      reason: `meson.build: setup builds into build/ → before the tests of every run: meson compile -C build (${overridable})`,
    });
    expect(plan.reasons).toEqual(['meson.build → meson setup build; meson compile -C build']);
  });

  it('CMake wins over a meson.build or Makefile beside it: one build system per root', async () => {
    const plan = await detectSetup(tree({ 'CMakeLists.txt': '', 'meson.build': '', Makefile: '' }));
    expect(plan.build?.argv).toEqual(['cmake', '--build', 'build']);
    expect(plan.commands).toHaveLength(2);
  });

  it('a Makefile project tested by another runner: setup runs make, every run rebuilds with make', async () => {
    const plan = await detectSetup(tree({ Makefile: 'all:\n', 'calc.c': '' }), {
      testCommand: ['ctest', '--test-dir', 'build'],
    });
    expect(plan.commands).toEqual([['make']]);
    expect(plan.manifests).toEqual(['Makefile']);
    expect(plan.build).toEqual({
      argv: ['make'],
      reason: `Makefile: setup builds in the tree → before the tests of every run: make (${overridable})`,
    });
  });

  it('a Makefile project tested by make: its targets build what they test, so nothing is added', async () => {
    const plan = await detectSetup(tree({ GNUmakefile: '', 'calc.c': '' }), {
      testCommand: ['make', 'check'],
    });
    expect(plan.commands).toEqual([]);
    expect(plan.build).toBeNull();
    expect(plan.reasons).toEqual([
      'GNUmakefile → nothing to set up: the test command (make) builds what it tests',
    ]);
  });

  it('a Makefile beside another ecosystem is a chore runner, not the build', async () => {
    const trees: Record<string, string>[] = [
      { Makefile: '', 'pyproject.toml': '[project]\nname = "x"\n' },
      { Makefile: '', 'package.json': '{}', 'package-lock.json': '{}' },
      { Makefile: '', 'go.mod': 'module x\n', 'go.sum': '' },
    ];
    for (const files of trees) {
      const plan = await detectSetup(tree(files), { testCommand: ['pytest'] });
      expect(plan.build).toBeNull();
      expect(plan.commands).not.toContainEqual(['make']);
    }
  });

  it('interpreted projects get no build step', async () => {
    const plan = await detectSetup(tree({ 'package.json': '{}', 'package-lock.json': '{}' }));
    expect(plan.build).toBeNull();
  });

  it('every detected setup and build command passes the command policy', async () => {
    const trees: Record<string, string>[] = [
      { 'CMakeLists.txt': '' },
      { 'meson.build': '' },
      { Makefile: '' },
    ];
    for (const files of trees) {
      const plan = await detectSetup(tree(files), { testCommand: ['ctest'] });
      for (const argv of plan.commands) expect(checkSetupCommand(argv)).toMatchObject({ ok: true });
      expect(checkBuildCommand(plan.build?.argv ?? [])).toMatchObject({ ok: true });
    }
  });
});
