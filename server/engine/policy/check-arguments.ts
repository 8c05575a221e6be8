import type { RunnerRule } from './command-rules';

/** The arguments of one program, and where they start in the whole command (for messages). */
export interface Arguments {
  /** How the command names the program: `'cargo'`, `'.venv/bin/python -m pytest'`. */
  readonly name: string;
  readonly args: readonly string[];
  /** The index in the command's argv of `args[0]`: refusals count arguments from the program. */
  readonly offset: number;
}

/** `-x` (a one-letter option, which may glue its value: `-xvalue`). */
const oneLetter = (option: string): boolean => /^-[A-Za-z]$/.test(option);

/** `-exec`, `-Dmaven.repo.local`: single-dash long options, which Go's flag package also reads as `--exec`. */
const spellings = (option: string): string[] =>
  /^-[^-]{2,}/.test(option) ? [option, `-${option}`] : [option];

/** Whether `arg` gives `option`: `-x`, `-x value`, `-xvalue`, `--long`, `--long=value`. */
function usesOption(arg: string, option: string): boolean {
  if (spellings(option).some((o) => arg === o || arg.startsWith(`${o}=`))) return true;
  return oneLetter(option) && arg.startsWith(option) && !arg.startsWith('--');
}

/** The value `args[i]` gives `option`, and the index of the argument holding it; null if it does not. */
function optionValue(
  args: readonly string[],
  i: number,
  option: string,
): { value: string; index: number } | null {
  const arg = args[i] ?? '';
  for (const o of spellings(option)) {
    if (arg === o) return { value: args[i + 1] ?? '', index: i + 1 };
    if (arg.startsWith(`${o}=`)) return { value: arg.slice(o.length + 1), index: i };
  }
  if (oneLetter(option) && arg.startsWith(option) && !arg.startsWith('--')) {
    return { value: arg.slice(option.length), index: i };
  }
  return null;
}

/** A relative path without `..`: whatever the program's directory, it names something inside. */
export const staysInside = (p: string): boolean =>
  !p.startsWith('/') && !p.split('/').includes('..');

/** Positional arguments (not options) before `--`, with their indexes. */
function positionals(args: readonly string[]): { arg: string; index: number }[] {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).flatMap((arg, index) =>
    arg.startsWith('-') ? [] : [{ arg, index }],
  );
}

function checkSubcommand(rule: RunnerRule, { name, args, offset }: Arguments): string | null {
  if (rule.subcommands === undefined) return null;
  const positional = positionals(args);
  const first = positional.findIndex((w) => rule.selector?.test(w.arg) !== true);
  const given = first < 0 ? [] : positional.slice(first);
  // The words of each subcommand the command gives, in order: all of one's, and it is admitted;
  // else the word after the longest run is the offending argument.
  const runs = rule.subcommands.map((sub) => {
    const words = sub.split(' ');
    const k = words.findIndex((word, j) => given[j]?.arg !== word);
    return { complete: k < 0, length: k < 0 ? words.length : k };
  });
  if (runs.some((run) => run.complete)) return null;
  const offending = given[Math.max(...runs.map((run) => run.length))];
  const allowed = rule.subcommands.map((s) => `'${name} ${s}'`).join(', ');
  if (offending !== undefined) {
    return `'${name}' may only run ${allowed} (argument ${offset + offending.index}: '${offending.arg}')`;
  }
  const last = given.at(-1);
  return last === undefined
    ? `'${name}' may only run ${allowed} (it was given no subcommand)`
    : `'${name}' may only run ${allowed} (nothing follows argument ${offset + last.index}: '${last.arg}')`;
}

function checkArgument(
  rule: RunnerRule,
  { name, args, offset }: Arguments,
  i: number,
): string | null {
  const arg = args[i] ?? '';
  const at = (index: number): string => `argument ${offset + index}: '${args[index] ?? ''}'`;
  const option = rule.forbidden.find((o) => usesOption(arg, o));
  if (option !== undefined) return `'${name}' may not be given ${option} (${at(i)})`;
  if (rule.forbiddenDefines !== undefined) {
    const define = optionValue(args, i, '-D');
    const variable = define?.value.split(/[:=]/)[0] ?? '';
    if (define !== null && rule.forbiddenDefines.test(variable)) {
      return `'${name}' may not be given -D ${variable} (${at(define.index)})`;
    }
  }
  for (const pathOption of rule.paths ?? []) {
    const given = optionValue(args, i, pathOption);
    if (given !== null && !staysInside(given.value)) {
      return `'${name}' may only be given ${pathOption} with a relative path inside the workspace (${at(given.index)})`;
    }
  }
  if (rule.positionalPaths === true && !arg.startsWith('-') && !staysInside(arg)) {
    return `'${name}' may only be given a relative path inside the workspace (${at(i)})`;
  }
  if (rule.argFiles === true && arg.startsWith('@')) {
    return `'${name}' would read arguments from the file '${arg.slice(1)}' (${at(i)})`;
  }
  return null;
}

/** The refusal of a program's arguments under its rule, or null when they are admitted. */
export function checkArguments(rule: RunnerRule, given: Arguments): string | null {
  const subcommand = checkSubcommand(rule, given);
  if (subcommand !== null) return subcommand;
  for (const i of given.args.keys()) {
    if (given.args[i] === '--') break; // what follows goes to the tests themselves
    const refusal = checkArgument(rule, given, i);
    if (refusal !== null) return refusal;
  }
  for (const required of rule.requires ?? []) {
    if (!given.args.includes(required)) {
      return `'${given.name}' may only be run as '${given.name} ${required} …' (it was not given ${required})`;
    }
  }
  return null;
}
