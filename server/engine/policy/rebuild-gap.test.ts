import { describe, expect, it } from 'vitest';
import { checkBuildCommand, checkSetupCommand } from './command-policy';
import { commandBuilds, rebuildGap, testCommandRebuilds } from './rebuild-gap';

const ctest = ['ctest', '--test-dir', 'build', '--output-on-failure'];
const configure = ['cmake', '-S', '.', '-B', 'build'];
const cmakeBuild = ['cmake', '--build', 'build'];

describe('commandBuilds: setup commands that compile', () => {
  it.each([
    [['make'], true],
    [['make', '-j', '4', 'all'], true],
    [cmakeBuild, true],
    [['ninja', '-C', 'build'], true],
    [['meson', 'compile', '-C', 'build'], true],
    [['cargo', 'build', '--release'], true],
    [configure, false],
    [['meson', 'setup', 'build'], false],
    [['cargo', 'fetch', '--locked'], false],
    [['npm', 'ci'], false],
    [['.venv/bin/pip', 'install', '-e', '.'], false],
  ])('%j → %s', (argv, builds) => expect(commandBuilds(argv)).toBe(builds));
});

describe('testCommandRebuilds: test commands that build what they test', () => {
  it.each([
    [['make', 'test'], [['make']], true],
    [['make', 'check'], [], true],
    // CMake's generated `test` target runs ctest and builds nothing.
    [['make', '-C', 'build', 'test'], [configure, cmakeBuild], false],
    [['meson', 'test'], [], true],
    [['meson', 'test', '--no-rebuild'], [], false],
    [['cmake', '--build', 'build', '--target', 'check'], [], true],
    [['cargo', 'test'], [], true],
    [['go', 'test', './...'], [], true],
    [['dotnet', 'test'], [], true],
    [['dotnet', 'test', '--no-build'], [], false],
    [ctest, [], false],
    [['python3', '-m', 'pytest'], [], false],
    [['npx', 'vitest', 'run'], [], false],
  ])('%j after %j → %s', (test, setup, rebuilds) =>
    expect(testCommandRebuilds(test, setup)).toBe(rebuilds),
  );
});

describe('rebuildGap: a setup that builds, tests that do not rebuild, no build step', () => {
  it('names the build step to add: the setup command that builds', () => {
    expect(
      rebuildGap({
        testCommand: ctest,
        setupCommands: [configure, cmakeBuild],
        buildCommand: null,
      }),
    ).toBe(
      'setup command 2 (cmake --build build) builds, but the test command ' +
        '(ctest --test-dir build --output-on-failure) does not rebuild, so every hypothesis would ' +
        'test the binaries built before its change: add buildCommand ["cmake","--build","build"]; ' +
        'it runs in the sandbox before the tests of every run',
    );
  });

  it('a pytest suite over a C extension that setup made with make', () => {
    expect(
      rebuildGap({
        testCommand: ['python3', '-m', 'pytest'],
        setupCommands: [
          ['python3', '-m', 'venv', '.venv'],
          ['make', '-j', '2'],
        ],
      }),
    ).toBe(
      'setup command 2 (make -j 2) builds, but the test command (python3 -m pytest) does not ' +
        'rebuild, so every hypothesis would test the binaries built before its change: add ' +
        'buildCommand ["make","-j","2"]; it runs in the sandbox before the tests of every run',
    );
  });

  it('a building setup command the build policy refuses gets a generic suggestion', () => {
    // cargo's build rule admits `build`, but not a setup-only selector like this path option.
    const gap = rebuildGap({
      testCommand: ctest,
      setupCommands: [['cargo', 'build', '--manifest-path', '/abs/Cargo.toml']],
    });
    expect(gap).toContain(
      'add a buildCommand that rebuilds (e.g. ["make"] or ["cmake","--build","build"])',
    );
  });

  it('is no gap with a build command, with tests that rebuild, or with a setup that builds nothing', () => {
    expect(
      rebuildGap({
        testCommand: ctest,
        setupCommands: [configure, cmakeBuild],
        buildCommand: cmakeBuild,
      }),
    ).toBeNull();
    expect(rebuildGap({ testCommand: ['make', 'check'], setupCommands: [['make']] })).toBeNull();
    expect(rebuildGap({ testCommand: ctest, setupCommands: [configure] })).toBeNull();
    expect(rebuildGap({ testCommand: ctest, setupCommands: null })).toBeNull();
    expect(rebuildGap({ testCommand: ctest, setupCommands: [] })).toBeNull();
  });
});

describe('Meson and ninja as setup and build commands', () => {
  it('admits meson setup/compile and ninja, inside the workspace', () => {
    expect(checkSetupCommand(['meson', 'setup', 'build'])).toEqual({ ok: true, runner: 'meson' });
    expect(checkSetupCommand(['meson', 'compile', '-C', 'build'])).toMatchObject({ ok: true });
    expect(checkSetupCommand(['ninja', '-C', 'build'])).toMatchObject({ ok: true });
    expect(checkBuildCommand(['meson', 'compile', '-C', 'build'])).toMatchObject({ ok: true });
    expect(checkBuildCommand(['ninja', '-C', 'build'])).toEqual({ ok: true, runner: 'ninja' });
  });

  it('refuses a cross file (its exe_wrapper runs every test), ninja tools and paths outside', () => {
    expect(checkSetupCommand(['meson', 'setup', 'build', '--cross-file', 'x.ini'])).toMatchObject({
      ok: false,
      message: "'meson' may not be given --cross-file (argument 3: '--cross-file')",
    });
    expect(checkBuildCommand(['meson', 'setup', 'build'])).toMatchObject({ ok: false });
    expect(checkSetupCommand(['meson', 'setup', '/tmp/build'])).toMatchObject({
      ok: false,
      message:
        "'meson' may only be given a relative path inside the workspace (argument 2: '/tmp/build')",
    });
    expect(checkBuildCommand(['ninja', '-t', 'commands'])).toMatchObject({
      ok: false,
      message: "'ninja' may not be given -t (argument 1: '-t')",
    });
    expect(checkBuildCommand(['ninja', '-C', '../other'])).toMatchObject({ ok: false });
  });
});
