import { describe, expect, it } from 'vitest';
import { fnmatchRegExp, globRegExp } from './globs';
import { runnerOf } from './runner-command';

describe('the runners’ pattern languages', () => {
  it.each<[string, string, boolean]>([
    ['test_*.py', 'test_calc.py', true],
    ['test_*.py', 'calc_test.py', false],
    ['*_test.py', 'calc_test.py', true],
    ['check_[a-c]*.py', 'check_calc.py', true],
    ['check_[!a-c]*.py', 'check_calc.py', false],
    ['*', 'a/b.py', true], // fnmatch's `*` crosses `/`
  ])('fnmatch %s on %s: %s', (pattern, name, expected) => {
    expect(fnmatchRegExp(pattern).test(name)).toBe(expected);
  });

  it.each<[string, string, boolean]>([
    // jest's defaults
    ['**/__tests__/**/*.?([mc])[jt]s?(x)', 'src/__tests__/a.tsx', true],
    ['**/__tests__/**/*.?([mc])[jt]s?(x)', '__tests__/deep/a.mjs', true],
    ['**/?(*.)+(spec|test).?([mc])[jt]s?(x)', 'src/add.test.ts', true],
    ['**/?(*.)+(spec|test).?([mc])[jt]s?(x)', 'spec.js', true],
    ['**/?(*.)+(spec|test).?([mc])[jt]s?(x)', 'src/router.js', false],
    // vitest's and mocha's
    ['**/*.{test,spec}.?(c|m)[jt]s?(x)', 'a/b.spec.cts', true],
    ['**/*.{test,spec}.?(c|m)[jt]s?(x)', 'a/b.ts', false],
    ['./test/*.{js,cjs,mjs}', 'test/a.js', true],
    ['./test/*.{js,cjs,mjs}', 'test/sub/a.js', false],
    ['<rootDir>/src/**/*.check.ts', 'src/a/b.check.ts', true],
    ['src/**', 'src/a/b.ts', true],
    ['src/*.ts', 'src/a/b.ts', false],
  ])('glob %s on %s: %s', (pattern, path, expected) => {
    expect(globRegExp(pattern).test(path)).toBe(expected);
  });

  it('finds the runner through wrappers', () => {
    expect(runnerOf(['uv', 'run', 'pytest', '-q', 'tests'])).toEqual({
      runner: 'pytest',
      args: ['-q', 'tests'],
    });
    expect(runnerOf(['python3', '-m', 'unittest', '-v']).runner).toBe('unittest');
    expect(runnerOf(['npx', 'vitest', 'run']).runner).toBe('vitest');
    expect(runnerOf(['node', 'node_modules/.bin/jest']).runner).toBe('jest');
    expect(runnerOf(['node', '--test', 'lib/']).runner).toBe('node-test');
    expect(runnerOf(['make', 'test']).runner).toBeNull();
    expect(runnerOf(undefined).runner).toBeNull();
  });
});
