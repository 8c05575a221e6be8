// Finds the test tool inside a command line: `npx vitest run`, `python3 -m pytest`, `uv run pytest`,
// `env CI=1 cargo test`, `./node_modules/.bin/jest` all name the tool after a wrapper or a path.
// Only wrappers that run their argument unchanged are unwrapped; `npm test` and friends run a
// script whose content is not on the command line, so they stay as they are (and end up `auto`).

export interface Tool {
  /** Base name of the program that runs the tests, or the Python module after `-m`. */
  readonly name: string;
  readonly args: readonly string[];
}

const npxLike = new Set(['npx', 'bunx', 'pnpx']);
const runSubcommand = new Set(['uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye']);
const jsTools = new Set(['jest', 'vitest', 'mocha', '_mocha', 'tape']);
// Python options that take a value, so the value is not mistaken for the script.
const pythonValueOptions = new Set(['-W', '-X', '-Q']);

export function baseName(program: string): string {
  return program.split(/[\\/]/).at(-1) ?? program;
}

export function isPython(name: string): boolean {
  return /^(?:python(?:\d+(?:\.\d+)?)?|py|pypy3?)$/.test(name);
}

export function resolveTool(argv: readonly string[]): Tool {
  let rest = [...argv];
  for (;;) {
    const [first, second, ...tail] = rest;
    if (first === undefined) return { name: '', args: [] };
    const name = baseName(first);
    if (name === 'env') {
      rest = dropWhile(rest.slice(1), (arg) => /^[A-Za-z_]\w*=/.test(arg) || arg.startsWith('-'));
    } else if (npxLike.has(name)) {
      rest = dropOptions(rest.slice(1), new Set(['-p', '--package']));
    } else if ((name === 'pnpm' || name === 'yarn') && (second === 'exec' || second === 'dlx')) {
      rest = dropOptions(tail, new Set());
    } else if (
      (name === 'pnpm' || name === 'yarn') &&
      second !== undefined &&
      jsTools.has(second)
    ) {
      rest = rest.slice(1);
    } else if (name === 'npm' && (second === 'exec' || second === 'x')) {
      rest = dropOptions(tail, new Set(['-p', '--package']));
    } else if (runSubcommand.has(name) && second === 'run') {
      rest = dropOptions(tail, new Set());
    } else if (isPython(name) || name === 'coverage') {
      const args = name === 'coverage' && second === 'run' ? tail : rest.slice(1);
      const module = pythonModule(args);
      if (module === null) return { name, args: rest.slice(1) };
      rest = module;
    } else {
      return { name, args: rest.slice(1) };
    }
  }
}

/** `-m pytest -q` → `['pytest', '-q']`; a script (`manage.py test`) → `['manage.py', 'test']`. */
function pythonModule(args: readonly string[]): string[] | null {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '-m') return args.slice(index + 1);
    if (pythonValueOptions.has(arg)) index += 1;
    else if (arg === '-c' || arg === '-') return null;
    else if (!arg.startsWith('-')) return args.slice(index);
  }
  return null;
}

function dropOptions(args: readonly string[], valued: ReadonlySet<string>): string[] {
  let index = 0;
  while (index < args.length && (args[index] ?? '').startsWith('-')) {
    const arg = args[index] ?? '';
    index += valued.has(arg) ? 2 : 1;
    if (arg === '--') break;
  }
  return args.slice(index);
}

function dropWhile(args: readonly string[], predicate: (arg: string) => boolean): string[] {
  const index = args.findIndex((arg) => !predicate(arg));
  return index < 0 ? [] : args.slice(index);
}
