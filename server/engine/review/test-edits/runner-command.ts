/** Which test runner a task's command starts, and the arguments it passes it. */

export type RunnerName =
  'pytest' | 'unittest' | 'jest' | 'vitest' | 'mocha' | 'node-test' | 'cargo' | 'go';

export interface RunnerCommand {
  /** null where the command starts no runner Shadowbox knows (`make test`, `tox`, a script). */
  readonly runner: RunnerName | null;
  readonly args: readonly string[];
}

const byProgram: Readonly<Record<string, RunnerName>> = {
  pytest: 'pytest',
  'py.test': 'pytest',
  jest: 'jest',
  vitest: 'vitest',
  mocha: 'mocha',
  _mocha: 'mocha',
  cargo: 'cargo',
  'cargo-nextest': 'cargo',
  go: 'go',
};

const program = (token: string): string =>
  token
    .slice(token.lastIndexOf('/') + 1)
    .replace(/\.(?:cmd|exe|[cm]?js)$/, '')
    .replace(/-3$/, '');

/**
 * The first runner the argv names, through wrappers (`npx vitest run`, `uv run pytest -q`,
 * `python -m pytest`, `node node_modules/.bin/jest`, `node --test`).
 */
export function runnerOf(argv: readonly string[] | undefined): RunnerCommand {
  const tokens = argv ?? [];
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] ?? '';
    const next = tokens[i + 1] ?? '';
    if (token === '-m' && (next === 'pytest' || next === 'unittest')) {
      return { runner: next, args: tokens.slice(i + 2) };
    }
    if (/^node(?:js)?$/.test(program(token)) && tokens.slice(i + 1).includes('--test')) {
      return { runner: 'node-test', args: tokens.slice(i + 1).filter((t) => t !== '--test') };
    }
    const runner = byProgram[program(token)];
    if (runner !== undefined) return { runner, args: tokens.slice(i + 1) };
  }
  return { runner: null, args: [] };
}

/**
 * The arguments that are not options, and not the values of the options `valued` names.
 * (`pytest -k add tests` names `tests`, not `add`.)
 */
export function positionals(args: readonly string[], valued: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      found.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-')) {
      if (valued.has(arg)) i += 1;
      continue;
    }
    found.push(arg);
  }
  return found;
}

/** The values of an option given as `-o value`, `-ovalue`, `--opt value` or `--opt=value`. */
export function optionValues(args: readonly string[], names: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    for (const name of names) {
      if (arg === name && i + 1 < args.length) values.push(args[i + 1] ?? '');
      else if (name.startsWith('--') && arg.startsWith(`${name}=`)) {
        values.push(arg.slice(name.length + 1));
      } else if (!name.startsWith('--') && arg.startsWith(name) && arg.length > name.length) {
        values.push(arg.slice(name.length));
      }
    }
  }
  return values;
}

/** A path argument as a path from the project root: no `./`, no trailing `/`, no `::test`. */
export const normalPath = (arg: string): string =>
  arg
    .replace(/::.*$/, '')
    .replace(/^(?:\.\/)+/, '')
    .replace(/\/+$/, '')
    .replace(/^\.$/, '');
