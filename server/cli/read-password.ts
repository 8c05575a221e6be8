import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { AppError } from '../errors/app-error';

/**
 * The password for `user add`: one line from standard input when it is not a terminal (so a
 * script can pipe it: `printf '%s\n' "$PW" | shadowbox user add …`), else asked for twice at a
 * prompt that does not echo it.
 */
export async function readPassword(
  stdin: Readable & { isTTY?: boolean },
  stderr: { write(chunk: string): unknown },
): Promise<string> {
  if (stdin.isTTY !== true) return firstLine(stdin);
  const first = await prompt(stdin, stderr, 'Password: ');
  const again = await prompt(stdin, stderr, 'Password again: ');
  if (first !== again) throw new AppError('INVALID_ARGUMENT', 'the two passwords differ');
  return first;
}

async function firstLine(stdin: Readable): Promise<string> {
  const lines = createInterface({ input: stdin, crlfDelay: Infinity });
  try {
    for await (const line of lines) return line;
  } finally {
    lines.close();
  }
  throw new AppError('INVALID_ARGUMENT', 'no password on standard input (give it as one line)');
}

function prompt(
  stdin: Readable & { setRawMode?: (raw: boolean) => unknown },
  stderr: { write(chunk: string): unknown },
  question: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    stderr.write(question);
    let typed = '';
    stdin.setRawMode?.(true);
    const done = (error: Error | null): void => {
      stdin.setRawMode?.(false);
      stdin.off('data', onData);
      stdin.pause();
      stderr.write('\n');
      if (error === null) resolve(typed);
      else reject(error);
    };
    const onData = (chunk: Buffer): void => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          done(null);
          return;
        }
        if (char === '\u0003') {
          done(new AppError('INVALID_ARGUMENT', 'cancelled'));
          return;
        }
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
    stdin.resume();
  });
}
