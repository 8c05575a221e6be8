import { describe, expect, it } from 'vitest';
import { checkCommand } from './command-policy';

const allowed = (argv: string[]) => expect(checkCommand(argv)).toMatchObject({ ok: true });
const refused = (argv: string[], message: string | RegExp) => {
  const verdict = checkCommand(argv);
  expect(verdict.ok).toBe(false);
  if (!verdict.ok) {
    expect(verdict.code).toBe('COMMAND_NOT_ALLOWED');
    expect(verdict.message).toMatch(message);
  }
};

describe('the command policy', () => {
  it.each([
    [['cargo', 'test']],
    [['cargo', 'test', '--offline', '--', '--nocapture', '-Z', 'unstable-options']],
    [['cargo', 'nextest', 'run']],
    [['go', 'test', '-json', './...']],
    [['python3', '-m', 'pytest', '-q', '-k', 'adds']],
    [['python', '-m', 'unittest', '-v']],
    [['pytest', '-rA', 'tests/']],
    [['npx', 'vitest', 'run']],
    [['npm', 'test']],
    [['node', '--test', 'test/']],
    [['ctest', '--output-on-failure']],
    [['meson', 'test', '--print-errorlogs']],
    [['./gradlew', 'test']],
    [['mvn', '-q', 'test']],
  ])('allows %j', (argv) => allowed(argv));

  // Each case below is a way a "test command" could run something else or reach outside the
  // workspace; every one is a named regression test.
  it('refuses go test -exec and -toolexec, in every spelling (arbitrary program per test binary)', () => {
    refused(
      ['go', 'test', '-exec', '/bin/sh', './...'],
      "may not be given -exec (argument 2: '-exec')",
    );
    refused(['go', 'test', '-toolexec=evil', './...'], 'may not be given -toolexec');
    refused(['go', 'test', '--toolexec', 'evil'], 'may not be given -toolexec');
  });

  it('refuses pytest -p plugins (glued too), @argument files and --basetemp', () => {
    refused(
      ['python3', '-m', 'pytest', '-p', 'evil_plugin'],
      "may not be given -p (argument 1: '-p')",
    );
    refused(['pytest', '-pevil_plugin'], 'may not be given -p');
    refused(
      ['pytest', '@/etc/shadow-args'],
      "would read arguments from the file '/etc/shadow-args'",
    );
    refused(['pytest', '--basetemp=/'], 'may not be given --basetemp');
    refused(['pytest', '-o', 'addopts=-p evil'], 'may not be given -o');
  });

  it('refuses npm --prefix and a script shell of its choosing', () => {
    refused(['npm', 'test', '--prefix', '/'], 'may not be given --prefix');
    refused(['npm', 'run', 'test', '--script-shell=/bin/bash'], 'may not be given --script-shell');
    refused(
      ['npm', 'exec', 'evil'],
      "'npm' may only run 'npm test', 'npm t', 'npm run', 'npm run-script'",
    );
  });

  it('refuses mvn settings files from elsewhere', () => {
    refused(['mvn', '-s', '/tmp/settings.xml', 'test'], 'may not be given -s');
    refused(['mvn', 'test', '-Dmaven.repo.local=/tmp/repo'], 'may not be given -Dmaven.repo.local');
  });

  it('refuses cargo --config (runner and wrapper overrides) and node loaders', () => {
    refused(
      ['cargo', 'test', '--config', 'target.x86_64-unknown-linux-gnu.runner="sh"'],
      'may not be given --config',
    );
    refused(['node', '--test', '--import', './evil.mjs'], 'may not be given --import');
    refused(['node', 'script.js'], "'node' may only be run as 'node --test …'");
  });

  it('refuses interpreters and launchers used as a way around the allowlist', () => {
    refused(
      ['python3', '-c', 'import os; os.system("id")'],
      "may only run 'python3 -m pytest' or 'python3 -m unittest'",
    );
    refused(
      ['npx', '--package', 'evil', 'vitest'],
      "'npx' may only start jest, vitest, mocha, with no options of its own",
    );
    refused(['npx', 'cowsay'], "'npx' may only start jest, vitest, mocha");
    refused(['sh', '-c', 'cargo test'], /'sh' is not an allowed test runner/);
    refused(['bash', 'run-tests.sh'], /'bash' is not an allowed test runner/);
    refused(['/usr/bin/cargo', 'test'], "run 'cargo' by name, not by path ('/usr/bin/cargo')");
    refused(['./evil/gradlew', 'test'], 'by name, not by path');
  });

  it('refuses empty, oversized and NUL-bearing commands', () => {
    refused([], 'the test command is empty');
    refused(['cargo', 'test\0'], 'contains a NUL byte');
    refused(['cargo', 'test', 'x'.repeat(5000)], 'longer than 4096 bytes');
    refused(['cargo', 'test', ...Array.from({ length: 300 }, () => 'a')], 'at most 256');
  });
});
