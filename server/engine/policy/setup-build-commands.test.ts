import { describe, expect, it } from 'vitest';
import { checkBuildCommand, checkSetupCommand, type CommandVerdict } from './command-policy';

const ok = (runner: string): CommandVerdict => ({ ok: true, runner });
const no = (message: string): CommandVerdict => ({
  ok: false,
  code: 'COMMAND_NOT_ALLOWED',
  message,
});

const setupPrograms =
  'npm, pnpm, yarn, pip, cargo, go, cmake, make, meson, ninja, mvn, uv, poetry, python -m venv|pip';
const buildPrograms =
  'cmake, make, meson, ninja, tsc, npm, pnpm, yarn, cargo, go, mvn, gradle, npx TOOL';
const intoSystem =
  "would install into the system (argument 0: '%s'): run a virtual environment's own, " +
  'DIR/bin/pip or DIR/bin/python -m pip with DIR inside the workspace';

describe('checkSetupCommand: installers whose installs stay in the workspace', () => {
  // The commands setup detection (server/engine/setup/detect-setup.ts) plans, and the others.
  it.each([
    [['npm', 'ci', '--no-audit', '--no-fund'], 'npm'],
    [['npm', 'install'], 'npm'],
    [['pnpm', 'install', '--frozen-lockfile'], 'pnpm'],
    [['yarn', 'install', '--frozen-lockfile'], 'yarn'],
    [['yarn', 'install', '--immutable'], 'yarn'],
    [['python3', '-m', 'venv', '.venv'], 'venv'],
    [['.venv/bin/pip', 'install', '-r', 'requirements.txt', '-r', 'requirements-dev.txt'], 'pip'],
    [['.venv/bin/pip', 'install', '-e', '.[test,dev]'], 'pip'],
    [['.venv/bin/python', '-m', 'pip', 'install', '-c', 'constraints.txt', 'pytest'], 'pip'],
    [['env/bin/pip3', 'install', '--no-deps', 'wheel'], 'pip'],
    [['cargo', 'fetch', '--locked'], 'cargo'],
    [['cargo', 'build', '--release'], 'cargo'],
    [['go', 'mod', 'download'], 'go'],
    [['cmake', '-S', '.', '-B', 'build'], 'cmake'],
    [['cmake', '--build', 'build'], 'cmake'],
    [['make'], 'make'],
    [['make', 'deps', '-j', '4'], 'make'],
    [['mvn', 'dependency:go-offline'], 'mvn'],
    [['./mvnw', '-Dmaven.repo.local=.m2/repository', 'dependency:go-offline'], 'mvn'],
    [['uv', 'sync'], 'uv'],
    [['uv', 'sync', '--frozen'], 'uv'],
    [['poetry', 'install'], 'poetry'],
    [['poetry', 'install', '--no-root'], 'poetry'],
  ])('allows %j', (argv, runner) => expect(checkSetupCommand(argv)).toEqual(ok(runner)));

  it('refuses a pip that would install into the system: only a virtual environment’s own', () => {
    expect(checkSetupCommand(['pip', 'install', 'x'])).toEqual(
      no(`'pip' ${intoSystem.replace('%s', 'pip')}`),
    );
    expect(checkSetupCommand(['pip3', 'install', 'x'])).toEqual(
      no(`'pip3' ${intoSystem.replace('%s', 'pip3')}`),
    );
    expect(checkSetupCommand(['/usr/bin/pip3', 'install', 'x'])).toEqual(
      no(`'/usr/bin/pip3' ${intoSystem.replace('%s', '/usr/bin/pip3')}`),
    );
    expect(checkSetupCommand(['python3', '-m', 'pip', 'install', 'x'])).toEqual(
      no(`'python3 -m pip' ${intoSystem.replace('%s', 'python3')}`),
    );
  });

  it('refuses pip options that install somewhere other than the virtual environment', () => {
    for (const [i, option] of ['--user', '--root', '--prefix', '--target', '-t'].entries()) {
      expect(checkSetupCommand(['.venv/bin/pip', 'install', option, `x${i}`])).toEqual(
        no(`'.venv/bin/pip' may not be given ${option} (argument 2: '${option}')`),
      );
    }
    expect(checkSetupCommand(['.venv/bin/pip', 'install', '-r', '/etc/reqs.txt'])).toEqual(
      no(
        "'.venv/bin/pip' may only be given -r with a relative path inside the workspace (argument 3: '/etc/reqs.txt')",
      ),
    );
    expect(checkSetupCommand(['.venv/bin/pip', 'uninstall', 'x'])).toEqual(
      no("'.venv/bin/pip' may only run '.venv/bin/pip install' (argument 1: 'uninstall')"),
    );
  });

  it('refuses a virtual environment outside the workspace', () => {
    expect(checkSetupCommand(['python3', '-m', 'venv', '/opt/venv'])).toEqual(
      no(
        "'python3 -m venv' may only be given a relative path inside the workspace (argument 3: '/opt/venv')",
      ),
    );
    expect(checkSetupCommand(['python3', '-m', 'venv', '../venv'])).toEqual(
      no(
        "'python3 -m venv' may only be given a relative path inside the workspace (argument 3: '../venv')",
      ),
    );
  });

  it('refuses global installs and installs into another prefix', () => {
    expect(checkSetupCommand(['npm', 'install', '-g', 'evil'])).toEqual(
      no("'npm' may not be given -g (argument 2: '-g')"),
    );
    expect(checkSetupCommand(['npm', 'ci', '--prefix', '/usr/local'])).toEqual(
      no("'npm' may not be given --prefix (argument 2: '--prefix')"),
    );
    expect(checkSetupCommand(['pnpm', 'install', '--global'])).toEqual(
      no("'pnpm' may not be given --global (argument 2: '--global')"),
    );
    expect(checkSetupCommand(['uv', 'sync', '--directory', '/srv/other'])).toEqual(
      no(
        "'uv' may only be given --directory with a relative path inside the workspace (argument 3: '/srv/other')",
      ),
    );
  });

  it('refuses npx (it fetches and runs any package, and setup has a network), tests and shells', () => {
    for (const program of ['npx', 'pytest', 'sh']) {
      expect(checkSetupCommand([program, 'x'])).toEqual(
        no(
          `'${program}' is not an allowed program for a setup command (argument 0); allowed: ${setupPrograms}`,
        ),
      );
    }
    expect(checkSetupCommand(['npm', 'test'])).toEqual(
      no("'npm' may only run 'npm ci', 'npm install', 'npm i' (argument 1: 'test')"),
    );
    expect(checkSetupCommand(['go', 'mod', 'tidy'])).toEqual(
      no("'go' may only run 'go mod download' (argument 2: 'tidy')"),
    );
    expect(checkSetupCommand(['go', 'mod'])).toEqual(
      no("'go' may only run 'go mod download' (nothing follows argument 1: 'mod')"),
    );
    expect(checkSetupCommand(['uv', 'run', 'sh'])).toEqual(
      no("'uv' may only run 'uv sync' (argument 1: 'run')"),
    );
    expect(checkSetupCommand(['cmake', '-E', 'env', 'sh'])).toEqual(
      no("'cmake' may not be given -E (argument 1: '-E')"),
    );
  });

  it('refuses an empty setup command', () => {
    expect(checkSetupCommand([])).toEqual(no('the setup command is empty'));
  });
});

describe('checkBuildCommand: what runs before the tests, offline', () => {
  it.each([
    [['cmake', '--build', 'build'], 'cmake'],
    [['cmake', '--build', 'build', '-j', '8'], 'cmake'],
    [['npm', 'run', 'build'], 'npm'],
    [['pnpm', 'run', 'build'], 'pnpm'],
    [['yarn', 'build'], 'yarn'],
    [['tsc', '-p', '.'], 'tsc'],
    [['npx', 'tsc', '-p', '.'], 'tsc'],
    [['node_modules/.bin/tsc', '-b'], 'tsc'],
    [['make'], 'make'],
    [['make', '-j', '4', 'all'], 'make'],
    [['cargo', 'build'], 'cargo'],
    [['cargo', 'build', '--tests', '--offline'], 'cargo'],
    [['go', 'build', './...'], 'go'],
    [['mvn', '-o', 'test-compile'], 'mvn'],
    [['./gradlew', 'assemble', '--offline'], 'gradle'],
  ])('allows %j', (argv, runner) => expect(checkBuildCommand(argv)).toEqual(ok(runner)));

  it('refuses tests, installs and shells as a build command', () => {
    expect(checkBuildCommand(['npm', 'ci'])).toEqual(
      no("'npm' may only run 'npm run', 'npm run-script' (argument 1: 'ci')"),
    );
    expect(checkBuildCommand(['cargo', 'test'])).toEqual(
      no("'cargo' may only run 'cargo build', 'cargo check' (argument 1: 'test')"),
    );
    for (const program of ['python3', 'pytest', 'sh']) {
      expect(checkBuildCommand([program, '-c', 'x'])).toEqual(
        no(
          `'${program}' is not an allowed program for a build command (argument 0); allowed: ${buildPrograms}`,
        ),
      );
    }
  });

  it('refuses a build that writes outside the workspace or wraps every compile', () => {
    expect(checkBuildCommand(['go', 'build', '-o', '/usr/local/bin/app'])).toEqual(
      no(
        "'go' may only be given -o with a relative path inside the workspace (argument 3: '/usr/local/bin/app')",
      ),
    );
    expect(checkBuildCommand(['go', 'build', '-toolexec', 'sh', './...'])).toEqual(
      no("'go' may not be given -toolexec (argument 2: '-toolexec')"),
    );
    expect(
      checkBuildCommand(['cmake', '-B', 'build', '-DCMAKE_C_COMPILER_LAUNCHER=/bin/sh']),
    ).toEqual(
      no(
        "'cmake' may not be given -D CMAKE_C_COMPILER_LAUNCHER (argument 3: '-DCMAKE_C_COMPILER_LAUNCHER=/bin/sh')",
      ),
    );
  });
});
