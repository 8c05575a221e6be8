import { describe, expect, it } from 'vitest';
import { runnerFromCommand } from './index';

describe('runnerFromCommand', () => {
  it.each([
    [['cargo', 'test'], 'cargo'],
    [['cargo', 'test', '--workspace', '--', '--nocapture'], 'cargo'],
    [['cargo', '+nightly', 'test'], 'cargo'],
    [['cargo', '--color', 'always', 'test'], 'cargo'],
    [['cargo', 'nextest', 'run'], 'nextest'],
    [['cargo', 'build'], 'auto'],
    [['go', 'test', '-json', './...'], 'go'],
    [['go', 'vet', './...'], 'auto'],
    [['pytest', '-q'], 'pytest'],
    [['python3', '-m', 'pytest'], 'pytest'],
    [['/usr/bin/python3.11', '-X', 'dev', '-m', 'pytest', '-x'], 'pytest'],
    [['uv', 'run', 'pytest'], 'pytest'],
    [['poetry', 'run', 'python', '-m', 'pytest'], 'pytest'],
    [['coverage', 'run', '-m', 'pytest'], 'pytest'],
    [['python', '-m', 'unittest', 'discover', '-v'], 'unittest'],
    [['python', 'manage.py', 'test'], 'unittest'],
    [['python', 'script.py'], 'auto'],
    [['npx', 'vitest', 'run'], 'vitest'],
    [['npx', '--yes', 'jest', '--ci'], 'jest'],
    [['pnpm', 'exec', 'mocha'], 'mocha'],
    [['yarn', 'jest'], 'jest'],
    [['./node_modules/.bin/jest'], 'jest'],
    [['env', 'CI=1', 'FORCE_COLOR=0', 'npx', 'vitest', 'run'], 'vitest'],
    [['node', '--test'], 'node'],
    [['node', '--test-reporter=tap', '--test', 'test/'], 'node'],
    [['node', 'script.js'], 'auto'],
    [['bun', 'test'], 'bun'],
    [['bun', 'run', 'test'], 'auto'],
    [['swift', 'test'], 'xctest'],
    [['swift', 'build'], 'auto'],
    [['ctest', '--output-on-failure'], 'ctest'],
    [['meson', 'test', '-C', 'build'], 'meson'],
    [['perl', 't/basic.t'], 'tap'],
    [['mvn', '-q', 'test'], 'junit'],
    [['./gradlew', 'test'], 'junit'],
    [['npm', 'test'], 'auto'],
    [['npm', 'run', 'test'], 'auto'],
    [['make', 'test'], 'auto'],
    [[], 'auto'],
  ] as const)('%j → %s', (argv, runner) => {
    expect(runnerFromCommand(argv)).toBe(runner);
  });
});
