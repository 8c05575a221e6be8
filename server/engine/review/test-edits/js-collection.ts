/**
 * The JS/TS files jest, vitest, mocha and `node --test` collect, by their configuration and
 * their defaults: jest's `testMatch` (default `**\/__tests__/**`, `*.test.*`, `*.spec.*`) or
 * `testRegex`; vitest's `test.include` (default `**\/*.{test,spec}.?(c|m)[jt]s?(x)`); mocha's
 * `spec` (default `./test/*.{js,cjs,mjs}`) and the files its command names; `node --test`'s
 * default globs and the files its command names. A command that names none of them may run any:
 * all count.
 */

import type { Matcher } from './collection';
import { globRegExp } from './globs';
import { jsonSetting, jsSetting, yamlSetting, type Setting } from './js-config';
import type { Files } from './pytest-config';
import {
  normalPath,
  optionValues,
  positionals,
  type RunnerCommand,
  type RunnerName,
} from './runner-command';

export const jsFile = /\.[cm]?[jt]sx?$/;

const defaults = {
  jest: ['**/__tests__/**/*.?([mc])[jt]s?(x)', '**/?(*.)+(spec|test).?([mc])[jt]s?(x)'],
  vitest: ['**/*.{test,spec}.?(c|m)[jt]s?(x)'],
  mocha: ['./test/*.{js,cjs,mjs}'],
  'node-test': [
    '**/*.test.?(c|m)[jt]s',
    '**/*-test.?(c|m)[jt]s',
    '**/*_test.?(c|m)[jt]s',
    '**/test-*.?(c|m)[jt]s',
    '**/test.?(c|m)[jt]s',
    '**/test/**/*.?(c|m)[jt]s',
  ],
};

type JsRunner = keyof typeof defaults;
const jsRunners: readonly JsRunner[] = ['jest', 'vitest', 'mocha', 'node-test'];
const isJsRunner = (runner: RunnerName | null): runner is JsRunner =>
  (jsRunners as readonly (RunnerName | null)[]).includes(runner);

const scripts = ['js', 'ts', 'mjs', 'cjs', 'mts', 'cts'];
const configFiles: Readonly<Record<Exclude<JsRunner, 'node-test'>, readonly string[]>> = {
  jest: [...scripts, 'json'].map((ext) => `jest.config.${ext}`),
  vitest: [
    ...scripts.map((ext) => `vitest.config.${ext}`),
    ...scripts.map((ext) => `vite.config.${ext}`),
    ...[...scripts, 'json'].map((ext) => `vitest.workspace.${ext}`),
  ],
  mocha: ['js', 'cjs', 'mjs', 'json', 'jsonc', 'yaml', 'yml'].map((ext) => `.mocharc.${ext}`),
};

/** One setting found in one file. */
interface Found {
  readonly file: string;
  readonly key: string;
  readonly setting: Setting;
}

function settingIn(runner: JsRunner, file: string, text: string): Found[] {
  if (runner === 'jest') {
    return [
      { file, key: 'testMatch', setting: jsSetting(text, 'testMatch') },
      { file, key: 'testRegex', setting: jsSetting(text, 'testRegex') },
    ];
  }
  if (runner === 'vitest')
    return [
      {
        file,
        key: 'test.include',
        setting: jsSetting(text, 'include', 'test', [
          'coverage',
          'typecheck',
          'benchmark',
          'browser',
        ]),
      },
    ];
  const setting = /\.ya?ml$/.test(file) ? yamlSetting(text, 'spec') : jsSetting(text, 'spec');
  return [{ file, key: 'spec', setting }];
}

function packageJsonSettings(runner: JsRunner, text: string | null): Found[] {
  if (text === null || (runner !== 'jest' && runner !== 'mocha')) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return [];
  }
  const section =
    parsed !== null && typeof parsed === 'object'
      ? (parsed as Record<string, unknown>)[runner]
      : undefined;
  if (section === undefined) return [];
  const keys = runner === 'jest' ? ['testMatch', 'testRegex'] : ['spec'];
  return keys.map((key) => ({
    file: `package.json ${runner}`,
    key,
    setting: jsonSetting(section, key),
  }));
}

const globMatcher = (pattern: string, why: string): Matcher => {
  const re = globRegExp(pattern);
  return { test: (path) => re.test(path), why };
};

function regexMatcher(source: string, why: string): Matcher | null {
  try {
    const re = new RegExp(source);
    return { test: (path) => re.test(`/${path}`), why };
  } catch {
    return null;
  }
}

/** A runner whose settings cannot be read may collect any file: tests are found by name in all. */
const anyFile = (why: string): Matcher => ({
  test: (path) => jsFile.test(path),
  why,
  explicit: true,
});

/** The configuration files a runner reads: the one its command names, or its usual ones. */
function configPathsOf(runner: JsRunner, args: readonly string[]): string[] {
  if (runner === 'node-test') return [];
  const given = optionValues(args, ['--config', '-c'])[0];
  if (given === undefined) return [...configFiles[runner], 'package.json'];
  // jest takes the configuration itself as JSON text too.
  return given.trimStart().startsWith('{') ? [] : [normalPath(given)];
}

function runnerMatchers(files: Files, runner: JsRunner, args: readonly string[]): Matcher[] {
  const found: Found[] = [];
  const given = optionValues(args, ['--config', '-c'])[0];
  if (runner !== 'node-test' && given?.trimStart().startsWith('{') === true) {
    found.push(...settingIn(runner, 'the command', given));
  }
  for (const file of configPathsOf(runner, args)) {
    const text = files(file);
    if (text === null) continue;
    if (file === 'package.json' && given === undefined) {
      found.push(...packageJsonSettings(runner, text));
    } else found.push(...settingIn(runner, file, text));
  }
  const matchers: Matcher[] = [];
  let configured = false;
  for (const { file, key, setting } of found) {
    if (setting === null) continue;
    configured = true;
    // A setting that is not literal may collect anything: reading it as the default would let a
    // hypothesis weaken a test in a file the runner collects by that setting, unflagged. So it
    // counts as "any file may hold tests", as before this reading of configurations existed.
    if (setting === 'unreadable') {
      matchers.push(
        anyFile(`${runner}: ${key} in ${file} is not literal, so any file may be a test file`),
      );
      continue;
    }
    for (const value of setting) {
      const why = `${runner} collects it: ${key} ${value} in ${file}`;
      const matcher = key === 'testRegex' ? regexMatcher(value, why) : globMatcher(value, why);
      matchers.push(
        matcher ?? anyFile(`${runner}: ${key} ${value} in ${file} is not a valid pattern`),
      );
    }
  }
  if (!configured) {
    matchers.push(
      ...defaults[runner].map((p) => globMatcher(p, `${runner} collects ${p} by default`)),
    );
  }
  // mocha and `node --test` collect the files and globs their command names, besides.
  if (runner === 'mocha' || runner === 'node-test') {
    const valued = new Set([
      '--config',
      '-c',
      '--reporter',
      '-R',
      '--timeout',
      '-t',
      '--require',
      '-r',
      '--ui',
      '-u',
      '--grep',
      '-g',
      '--test-reporter',
      '--test-reporter-destination',
      '--test-name-pattern',
      '--import',
    ]);
    const named = [...positionals(args, valued), ...optionValues(args, ['--spec'])];
    matchers.push(...named.map((p) => globMatcher(p, `the ${runner} command names it`)));
  }
  return matchers;
}

const runnersOf = (
  command: RunnerCommand,
): { runners: readonly JsRunner[]; args: readonly string[] } =>
  isJsRunner(command.runner)
    ? { runners: [command.runner], args: command.args }
    : { runners: jsRunners, args: [] };

/** The configuration files `jsCollection` may read for this command. */
export function jsConfigPaths(command: RunnerCommand): string[] {
  const { runners, args } = runnersOf(command);
  return runners.flatMap((runner) => configPathsOf(runner, args));
}

/** What the command's JS runner collects; every JS runner's where it names none. */
export function jsCollection(files: Files, command: RunnerCommand): Matcher[] {
  const { runners, args } = runnersOf(command);
  return runners.flatMap((runner) => runnerMatchers(files, runner, args));
}
