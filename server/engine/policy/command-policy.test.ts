import { describe, expect, it } from 'vitest';
import { checkCommand } from './command-policy';

const allowed = (argv: string[], runner: string) =>
  expect(checkCommand(argv)).toEqual({ ok: true, runner });
/** The exact refusal: every message names the program and the offending argument. */
const refused = (argv: string[], message: string) =>
  expect(checkCommand(argv)).toEqual({ ok: false, code: 'COMMAND_NOT_ALLOWED', message });

const testPrograms =
  'cargo, go, pytest, unittest, jest, vitest, mocha, playwright, tsc, node, npm, yarn, pnpm, ' +
  'bun, cmake, ctest, meson, make, mvn, gradle, swift, dotnet, python -m pytest|unittest, npx TOOL';

describe('checkCommand: what a test command may run', () => {
  it.each([
    [['cargo', 'test'], 'cargo'],
    [['cargo', 'test', '--offline', '--', '--nocapture', '-Z', 'unstable-options'], 'cargo'],
    [['cargo', 'nextest', 'run'], 'cargo'],
    [['go', 'test', '-json', './...'], 'go'],
    [['python3', '-m', 'pytest', '-q', '-k', 'adds'], 'pytest'],
    [['python', '-m', 'unittest', '-v'], 'unittest'],
    [['pytest', '-rA', 'tests/'], 'pytest'],
    [['npx', 'vitest', 'run'], 'vitest'],
    [['npm', 'test'], 'npm'],
    [['node', '--test', 'test/'], 'node'],
    [['ctest', '--output-on-failure'], 'ctest'],
    [['meson', 'test', '--print-errorlogs'], 'meson'],
    [['./gradlew', 'test'], 'gradle'],
    [['mvn', '-q', 'test'], 'mvn'],
  ])('still allows %j', (argv, runner) => allowed(argv, runner));

  // One row per command this policy newly admits: build tools and runners' ordinary options.
  it.each([
    [['cmake', '-S', '.', '-B', 'build'], 'cmake'],
    [['cmake', '--build', 'build'], 'cmake'],
    [['cmake', '--build', 'build', '--target', 'check', '-j', '8', '--', '-k'], 'cmake'],
    [
      ['cmake', '-S', '.', '-B', 'build', '-DCMAKE_BUILD_TYPE=Debug', '-D', 'WITH_TESTS=ON'],
      'cmake',
    ],
    [['cmake', '-Bbuild', '-G', 'Ninja', '-Wno-dev'], 'cmake'],
    [['make'], 'make'],
    [['make', 'check', '-j', '4'], 'make'],
    [['make', '-j8', '-C', 'sub', 'test'], 'make'],
    [['make', '--directory=lib', '-f', 'Makefile.test', 'test'], 'make'],
    [['ctest', '--test-dir', 'build'], 'ctest'],
    [
      [
        'ctest',
        '--test-dir',
        'build',
        '--output-on-failure',
        '-j',
        '4',
        '-R',
        'unit',
        '-E',
        'slow',
      ],
      'ctest',
    ],
    [['ctest', '--test-dir=build', '-L', 'fast', '--output-junit', 'junit.xml'], 'ctest'],
    [['npm', 'run', 'test'], 'npm'],
    [['npm', 'run-script', 'test:unit'], 'npm'],
    [['npm', 'test', '--', '--prefix', '/'], 'npm'], // after `--`: the script's own arguments
    [['npx', 'tsc', '-p', '.'], 'tsc'],
    [['npx', 'jest', '--ci'], 'jest'],
    [['npx', '--no-install', 'mocha'], 'mocha'],
    [['npx', 'playwright', 'test', '--project', 'chromium'], 'playwright'],
    [['pnpm', 'test'], 'pnpm'],
    [['pnpm', 'run', 'test'], 'pnpm'],
    [['yarn', 'test'], 'yarn'],
    [['yarn', 'run', 'test'], 'yarn'],
    [['.venv/bin/python', '-m', 'pytest'], 'pytest'],
    [['.venv/bin/python3', '-m', 'pytest', '-q', 'tests/'], 'pytest'],
    [['./venv/bin/python3.12', '-m', 'unittest'], 'unittest'],
    [['.venv/bin/pytest', '-x'], 'pytest'],
    [['python3', '-m', 'pytest'], 'pytest'],
    [['python3', '-m', 'unittest', 'discover'], 'unittest'],
    [['python3.11', '-m', 'pytest'], 'pytest'],
    [['node_modules/.bin/vitest', 'run'], 'vitest'],
    [['./node_modules/.bin/jest'], 'jest'],
    [['node_modules/.bin/tsc', '-p', 'tsconfig.test.json'], 'tsc'],
    [['go', 'test', './...'], 'go'],
    [['go', 'build', './...'], 'go'],
    [['go', 'build', '-o', 'bin/app', './cmd/app'], 'go'],
    [['go', 'vet', './...'], 'go'],
    [['go', 'test', '-C', 'sub', '-run', 'TestAdd', './...'], 'go'],
    [['cargo', 'build'], 'cargo'],
    [['cargo', '+nightly', 'test'], 'cargo'],
    [['cargo', 'test', '--manifest-path', 'crates/core/Cargo.toml'], 'cargo'],
    [['tsc', '-p', '.'], 'tsc'],
    [['tsc', '--noEmit', '--project', 'tsconfig.json'], 'tsc'],
    [['mvn', 'test'], 'mvn'],
    [['./mvnw', 'test'], 'mvn'],
    [['mvn', '-o', '-Dmaven.repo.local=.m2/repository', 'test'], 'mvn'],
    [['mvn', '-f', 'service/pom.xml', 'test'], 'mvn'],
    [['./gradlew', 'test', '--offline', '-g', '.gradle-home'], 'gradle'],
    [['/usr/bin/python3', '-m', 'pytest'], 'pytest'],
    [['/usr/local/bin/cargo', 'test'], 'cargo'],
    [['tools/gradlew', 'test'], 'gradle'], // a file of the workspace, judged by its name
  ])('allows %j', (argv, runner) => allowed(argv, runner));

  // Each case below is a way a "test command" could run something else, reach outside the
  // workspace or defeat the verdict; every one is a named regression test.
  it('refuses go test -exec and -toolexec, in every spelling (arbitrary program per test binary)', () => {
    refused(
      ['go', 'test', '-exec', '/bin/sh', './...'],
      "'go' may not be given -exec (argument 2: '-exec')",
    );
    refused(
      ['go', 'test', '-toolexec=evil', './...'],
      "'go' may not be given -toolexec (argument 2: '-toolexec=evil')",
    );
    refused(
      ['go', 'test', '--toolexec', 'evil'],
      "'go' may not be given -toolexec (argument 2: '--toolexec')",
    );
  });

  it('refuses go -o outside the workspace', () => {
    refused(
      ['go', 'test', '-c', '-o', '/tmp/t', './...'],
      "'go' may only be given -o with a relative path inside the workspace (argument 4: '/tmp/t')",
    );
  });

  it('refuses pytest -p plugins (glued too), @argument files and --basetemp', () => {
    refused(
      ['python3', '-m', 'pytest', '-p', 'evil_plugin'],
      "'python3 -m pytest' may not be given -p (argument 3: '-p')",
    );
    refused(
      ['pytest', '-pevil_plugin'],
      "'pytest' may not be given -p (argument 1: '-pevil_plugin')",
    );
    refused(
      ['pytest', '@/etc/shadow-args'],
      "'pytest' would read arguments from the file '/etc/shadow-args' (argument 1: '@/etc/shadow-args')",
    );
    refused(
      ['pytest', '--basetemp=/'],
      "'pytest' may not be given --basetemp (argument 1: '--basetemp=/')",
    );
    refused(['pytest', '-o', 'addopts=-p evil'], "'pytest' may not be given -o (argument 1: '-o')");
    refused(
      ['.venv/bin/python', '-m', 'pytest', '-p', 'evil'],
      "'.venv/bin/python -m pytest' may not be given -p (argument 3: '-p')",
    );
  });

  it('refuses npm --prefix, a script shell of its choosing and npm exec', () => {
    refused(
      ['npm', 'test', '--prefix', '/'],
      "'npm' may not be given --prefix (argument 2: '--prefix')",
    );
    refused(
      ['npm', 'run', 'test', '--script-shell=/bin/bash'],
      "'npm' may not be given --script-shell (argument 3: '--script-shell=/bin/bash')",
    );
    refused(
      ['npm', 'exec', 'evil'],
      "'npm' may only run 'npm test', 'npm t', 'npm run', 'npm run-script' (argument 1: 'exec')",
    );
    refused(
      ['npm'],
      "'npm' may only run 'npm test', 'npm t', 'npm run', 'npm run-script' (it was given no subcommand)",
    );
  });

  it('refuses mvn settings files and a repository outside the workspace', () => {
    refused(
      ['mvn', '-s', '/tmp/settings.xml', 'test'],
      "'mvn' may not be given -s (argument 1: '-s')",
    );
    refused(
      ['mvn', 'test', '-Dmaven.repo.local=/tmp/repo'],
      "'mvn' may only be given -Dmaven.repo.local with a relative path inside the workspace (argument 2: '-Dmaven.repo.local=/tmp/repo')",
    );
  });

  it('refuses cargo --config (runner and wrapper overrides), -Z and paths outside; node loaders', () => {
    refused(
      ['cargo', 'test', '--config', 'target.x86_64-unknown-linux-gnu.runner="sh"'],
      "'cargo' may not be given --config (argument 2: '--config')",
    );
    refused(
      ['cargo', '-Zbuild-std', 'test'],
      "'cargo' may not be given -Z (argument 1: '-Zbuild-std')",
    );
    refused(
      ['cargo', 'test', '--target-dir=../shared-target'],
      "'cargo' may only be given --target-dir with a relative path inside the workspace (argument 2: '--target-dir=../shared-target')",
    );
    refused(
      ['node', '--test', '--import', './evil.mjs'],
      "'node' may not be given --import (argument 2: '--import')",
    );
    refused(
      ['node', 'script.js'],
      "'node' may only be run as 'node --test …' (it was not given --test)",
    );
  });

  it('refuses cmake command and script modes (a wrapper around any program)', () => {
    refused(
      ['cmake', '-E', 'env', 'sh', '-c', 'id'],
      "'cmake' may not be given -E (argument 1: '-E')",
    );
    refused(['cmake', '-P', 'run.cmake'], "'cmake' may not be given -P (argument 1: '-P')");
  });

  it('refuses cmake definitions that run every compile or test through another program', () => {
    refused(
      ['cmake', '-S', '.', '-B', 'build', '-DCMAKE_CROSSCOMPILING_EMULATOR=/bin/echo'],
      "'cmake' may not be given -D CMAKE_CROSSCOMPILING_EMULATOR (argument 5: '-DCMAKE_CROSSCOMPILING_EMULATOR=/bin/echo')",
    );
    refused(
      ['cmake', '-D', 'CMAKE_CXX_COMPILER_LAUNCHER:STRING=sh', '-S', '.'],
      "'cmake' may not be given -D CMAKE_CXX_COMPILER_LAUNCHER (argument 2: 'CMAKE_CXX_COMPILER_LAUNCHER:STRING=sh')",
    );
    refused(
      ['cmake', '-DCMAKE_TEST_LAUNCHER=true', '-B', 'build'],
      "'cmake' may not be given -D CMAKE_TEST_LAUNCHER (argument 1: '-DCMAKE_TEST_LAUNCHER=true')",
    );
  });

  it('refuses cmake source and build directories outside the workspace', () => {
    refused(
      ['cmake', '-S', '.', '-B', '/tmp/build'],
      "'cmake' may only be given -B with a relative path inside the workspace (argument 4: '/tmp/build')",
    );
    refused(
      ['cmake', '--build', '../other/build'],
      "'cmake' may only be given --build with a relative path inside the workspace (argument 2: '../other/build')",
    );
    refused(
      ['cmake', '-S/srv/data', '-B', 'build'],
      "'cmake' may only be given -S with a relative path inside the workspace (argument 1: '-S/srv/data')",
    );
  });

  it('refuses make -C and -f outside the workspace, and --eval (make code on the command line)', () => {
    refused(
      ['make', '-C', '/etc'],
      "'make' may only be given -C with a relative path inside the workspace (argument 2: '/etc')",
    );
    refused(
      ['make', '--directory=../x', 'test'],
      "'make' may only be given --directory with a relative path inside the workspace (argument 1: '--directory=../x')",
    );
    refused(
      ['make', '-f', '/usr/share/evil.mk'],
      "'make' may only be given -f with a relative path inside the workspace (argument 2: '/usr/share/evil.mk')",
    );
    refused(
      ['make', '--eval=all:;@id', 'all'],
      "'make' may not be given --eval (argument 1: '--eval=all:;@id')",
    );
  });

  it('refuses ctest scripts, dashboards (which submit results) and directories outside', () => {
    refused(['ctest', '-S', 'dashboard.cmake'], "'ctest' may not be given -S (argument 1: '-S')");
    refused(['ctest', '-D', 'Experimental'], "'ctest' may not be given -D (argument 1: '-D')");
    refused(
      ['ctest', '--build-and-test', '.', 'build', '--test-command', 'sh'],
      "'ctest' may not be given --build-and-test (argument 1: '--build-and-test')",
    );
    refused(
      ['ctest', '--test-dir', '/'],
      "'ctest' may only be given --test-dir with a relative path inside the workspace (argument 2: '/')",
    );
    refused(
      ['ctest', '--test-dir', 'build', '--output-junit', '/tmp/out.xml'],
      "'ctest' may only be given --output-junit with a relative path inside the workspace (argument 4: '/tmp/out.xml')",
    );
  });

  it('refuses tsc argument files and projects outside the workspace', () => {
    refused(
      ['tsc', '@flags.txt'],
      "'tsc' would read arguments from the file 'flags.txt' (argument 1: '@flags.txt')",
    );
    refused(
      ['npx', 'tsc', '-p', '/srv/other'],
      "'npx tsc' may only be given -p with a relative path inside the workspace (argument 3: '/srv/other')",
    );
  });

  it('refuses npx fetching a package: its own options, versions, scopes, paths', () => {
    const byName = 'it only runs a tool the workspace has, by name';
    refused(
      ['npx', '--package', 'evil', 'vitest'],
      `'npx' may not be given --package (argument 1: '--package'): ${byName}`,
    );
    refused(
      ['npx', '-p', 'evil', 'vitest'],
      `'npx' may not be given -p (argument 1: '-p'): ${byName}`,
    );
    refused(
      ['npx', '--yes', 'vitest'],
      `'npx' may not be given --yes (argument 1: '--yes'): ${byName}`,
    );
    refused(['npx', '-c', 'vitest run'], `'npx' may not be given -c (argument 1: '-c'): ${byName}`);
    const fetched =
      "'npx' only runs a tool the workspace has, by its name, never a package to fetch or a path";
    refused(['npx', 'vitest@1.0.0'], `${fetched} (argument 1: 'vitest@1.0.0')`);
    refused(['npx', '@evil/pkg'], `${fetched} (argument 1: '@evil/pkg')`);
    refused(['npx', 'github:evil/pkg'], `${fetched} (argument 1: 'github:evil/pkg')`);
    refused(['npx', './script.js'], `${fetched} (argument 1: './script.js')`);
    refused(['npx'], "'npx' needs the name of a tool the workspace has");
  });

  it('refuses npx of a program outside the allowlist (npx falls back to PATH: `npx sh -c` is a shell)', () => {
    refused(
      ['npx', 'sh', '-c', 'id'],
      `'sh' is not an allowed program for a test command (started by npx, argument 1); allowed: ${testPrograms}`,
    );
    refused(
      ['npx', 'cowsay'],
      `'cowsay' is not an allowed program for a test command (started by npx, argument 1); allowed: ${testPrograms}`,
    );
    refused(
      ['npx', 'node', '-e', 'process.exit(0)'],
      "'npx node' may not be given -e (argument 2: '-e')",
    );
  });

  it('refuses shells and interpreters used as a way around the allowlist', () => {
    refused(
      ['python3', '-c', 'import os; os.system("id")'],
      "'python3' may only run 'python3 -m pytest' or 'python3 -m unittest' (argument 1: '-c')",
    );
    refused(
      ['.venv/bin/python', 'evil.py'],
      "'.venv/bin/python' may only run '.venv/bin/python -m pytest' or '.venv/bin/python -m unittest' (argument 1: 'evil.py')",
    );
    refused(
      ['python3', '-m', 'http.server'],
      "'python3' may only run 'python3 -m pytest' or 'python3 -m unittest' (argument 2: 'http.server')",
    );
    refused(
      ['python3'],
      "'python3' may only run 'python3 -m pytest' or 'python3 -m unittest' (it was given nothing)",
    );
    refused(
      ['sh', '-c', 'cargo test'],
      `'sh' is not an allowed program for a test command (argument 0); allowed: ${testPrograms}`,
    );
    refused(
      ['bash', 'run-tests.sh'],
      `'bash' is not an allowed program for a test command (argument 0); allowed: ${testPrograms}`,
    );
    refused(
      ['node_modules/.bin/sh', '-c', 'id'],
      `'node_modules/.bin/sh' is not an allowed program for a test command (argument 0); allowed: ${testPrograms}`,
    );
  });

  it('refuses absolute program paths outside the system directories, and `..` in a program path', () => {
    refused(
      ['/root/.cargo/bin/cargo', 'test'],
      "run 'cargo' by name or by a relative path inside the workspace, not by the absolute path '/root/.cargo/bin/cargo' (argument 0)",
    );
    refused(
      ['/usr/bin/../../tmp/pytest'],
      "run 'pytest' by name or by a relative path inside the workspace, not by the absolute path '/usr/bin/../../tmp/pytest' (argument 0)",
    );
    refused(
      ['../evil/gradlew', 'test'],
      "'gradlew' may not be run from outside the workspace: its path '../evil/gradlew' has '..' (argument 0)",
    );
    refused(
      ['.venv/../../other/.venv/bin/python', '-m', 'pytest'],
      "'python' may not be run from outside the workspace: its path '.venv/../../other/.venv/bin/python' has '..' (argument 0)",
    );
    refused(
      ['.venv/bin/'],
      "the program '.venv/bin/' names a directory, not a program (argument 0)",
    );
  });

  it('refuses empty, oversized and NUL-bearing commands', () => {
    refused([], 'the test command is empty');
    refused(['cargo', 'test\0'], 'the test command contains a NUL byte (argument 1)');
    refused(
      ['cargo', 'test', 'x'.repeat(5000)],
      'argument 2 of the test command is longer than 4096 bytes',
    );
    refused(
      ['cargo', 'test', ...Array.from({ length: 300 }, () => 'a')],
      'the test command has 302 arguments; at most 256',
    );
  });
});
