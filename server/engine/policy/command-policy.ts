import { aliases, launchers, runnerRules, type RunnerRule } from './command-rules';

export type CommandVerdict =
  | { readonly ok: true; readonly runner: string }
  | { readonly ok: false; readonly code: 'COMMAND_NOT_ALLOWED'; readonly message: string };

const maxArgs = 256;
const maxArgBytes = 4096;

const refuse = (message: string): CommandVerdict => ({
  ok: false,
  code: 'COMMAND_NOT_ALLOWED',
  message,
});

/**
 * Whether `arg` gives `option`: `-x`, `-x value`, `-xvalue` (one-letter options glue their value),
 * `--long`, `--long=value`, and for single-dash long options (Go's flag package) `--exec` too.
 */
function usesOption(arg: string, option: string): boolean {
  const spellings = /^-[^-]{2,}/.test(option) ? [option, `-${option}`] : [option];
  if (spellings.some((o) => arg === o || arg.startsWith(`${o}=`))) return true;
  return /^-[A-Za-z]$/.test(option) && arg.startsWith(option) && !arg.startsWith('--');
}

function checkRule(name: string, rule: RunnerRule, args: readonly string[]): CommandVerdict {
  if (rule.subcommands !== undefined) {
    const sub = args.find((a) => !a.startsWith('-'));
    if (sub === undefined || !rule.subcommands.includes(sub)) {
      return refuse(
        `'${name}' may only run ${rule.subcommands.map((s) => `'${name} ${s}'`).join(', ')}`,
      );
    }
  }
  for (const [i, arg] of args.entries()) {
    if (arg === '--') break; // what follows goes to the tests themselves
    const option = rule.forbidden.find((o) => usesOption(arg, o));
    if (option !== undefined)
      return refuse(`'${name}' may not be given ${option} (argument ${i + 1}: '${arg}')`);
    if (rule.argFiles === true && arg.startsWith('@')) {
      return refuse(`'${name}' would read arguments from the file '${arg.slice(1)}'`);
    }
  }
  for (const required of rule.requires ?? []) {
    if (!args.includes(required))
      return refuse(`'${name}' may only be run as '${name} ${required} …'`);
  }
  return { ok: true, runner: name };
}

/**
 * Checks a task's test command (argv, never a shell string) against the runner allowlist. A refusal
 * is a value that names the runner and the offending argument.
 */
export function checkCommand(argv: readonly string[]): CommandVerdict {
  const [program, ...args] = argv;
  if (program === undefined || program === '') return refuse('the test command is empty');
  if (argv.length > maxArgs)
    return refuse(`the test command has ${argv.length} arguments; at most ${maxArgs}`);
  for (const arg of argv) {
    if (arg.includes('\0')) return refuse('the test command contains a NUL byte');
    if (Buffer.byteLength(arg) > maxArgBytes)
      return refuse(`an argument is longer than ${maxArgBytes} bytes`);
  }
  // A program named by path (`./gradlew`, `/usr/bin/python3`) is judged by its name, but only the
  // workspace's own wrapper scripts may be given with a path.
  const base = program.split('/').at(-1) ?? program;
  if (program.includes('/') && !/^\.\/(gradlew|mvnw)$/.test(program)) {
    return refuse(`run '${base}' by name, not by path ('${program}')`);
  }
  const launched = unwrapLauncher(aliases[base] ?? base, base, args);
  if (typeof launched === 'string') return refuse(launched);
  const rule = runnerRules[launched.runner];
  if (rule === undefined) {
    const names = [
      ...Object.keys(runnerRules),
      'python -m pytest|unittest',
      'npx jest|vitest|mocha',
    ];
    return refuse(`'${base}' is not an allowed test runner; allowed: ${names.join(', ')}`);
  }
  return checkRule(launched.runner, rule, launched.args);
}

/** `python -m pytest …` and `npx vitest …` are judged as the runner they start. */
function unwrapLauncher(
  name: string,
  base: string,
  args: readonly string[],
): { runner: string; args: readonly string[] } | string {
  if (name === 'python') {
    const module = args[1] ?? '';
    if (args[0] !== '-m' || !(launchers.python as readonly string[]).includes(module)) {
      return `'${base}' may only run '${base} -m pytest' or '${base} -m unittest'`;
    }
    return { runner: module, args: args.slice(2) };
  }
  if (name === 'npx') {
    const pkg = args[0] ?? '';
    if (!(launchers.npx as readonly string[]).includes(pkg)) {
      return `'npx' may only start ${launchers.npx.join(', ')}, with no options of its own`;
    }
    return { runner: pkg, args: args.slice(1) };
  }
  return { runner: name, args };
}
