import { parse } from 'shell-quote';

export type SplitCommand =
  | { readonly ok: true; readonly argv: readonly string[] }
  | { readonly ok: false; readonly message: string };

/**
 * Splits a test command typed as on a command line into argv: quotes and backslashes work as in
 * a shell, but nothing is expanded and there is no shell to run pipes or redirections, so those
 * are refused rather than passed on as surprising arguments.
 */
export function splitCommandLine(line: string): SplitCommand {
  const argv: string[] = [];
  const entries = parse(line, (name) => ({ variable: name }));
  for (const entry of entries) {
    if (typeof entry === 'string') {
      argv.push(entry);
    } else if ('variable' in entry) {
      return refuse(
        `$${String(entry.variable)} would be expanded by a shell, and the command runs without one: write the value itself, or put it in single quotes`,
      );
    } else if ('comment' in entry) {
      return refuse(`'#' starts a comment in a shell: quote it if it belongs to an argument`);
    } else if (entry.op === 'glob') {
      // No shell expands it: the program gets the pattern, as pytest or cargo expect.
      argv.push(entry.pattern);
    } else {
      return refuse(
        `'${entry.op}' is a shell operator, and the command runs without a shell: give one program and its arguments (quote the character if it is part of an argument)`,
      );
    }
  }
  if (argv.length === 0) return refuse('give the command that runs the tests, e.g. pytest -q');
  return { ok: true, argv };
}

function refuse(message: string): SplitCommand {
  return { ok: false, message };
}
