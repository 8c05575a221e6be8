import { parse } from 'shell-quote';
import { AppError } from '../../errors/app-error';

/**
 * Splits a command typed as on a command line (a form field) into argv, by the rules of the
 * browser's form: quotes and backslashes work as in a shell, but nothing is expanded and there is
 * no shell to run pipes or redirections, so those are refused rather than passed on as arguments.
 * `name` is the field the messages name.
 */
export function splitCommandLine(line: string, name: string): string[] {
  const argv: string[] = [];
  for (const entry of parse(line, (variable) => ({ variable }))) {
    if (typeof entry === 'string') argv.push(entry);
    else if ('variable' in entry) {
      throw refuse(
        name,
        `$${String(entry.variable)} would be expanded by a shell, and it runs without one`,
      );
    } else if ('comment' in entry) {
      throw refuse(name, `'#' starts a comment in a shell: quote it if it belongs to an argument`);
    } else if (entry.op === 'glob') {
      // No shell expands it: the program gets the pattern.
      argv.push(entry.pattern);
    } else {
      throw refuse(name, `'${entry.op}' is a shell operator, and it runs without a shell`);
    }
  }
  if (argv.length === 0) throw refuse(name, 'give the program to run and its arguments');
  return argv;
}

const refuse = (name: string, message: string): AppError =>
  new AppError('INVALID_ARGUMENT', `${name}: ${message}`);
