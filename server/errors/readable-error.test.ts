import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { readableError, readableText } from './readable-error';

/** An error as a production bundle throws it: a real stack, whose frames point into `.next`. */
function bundledError(): Error {
  const error = new Error(
    "Cannot find module '/srv/shadowbox/node_modules/.pnpm/execa@9.6.0/node_modules/execa/index.js'",
  );
  error.stack = [
    `Error: ${error.message}`,
    '    at stageIntoUpper (/srv/shadowbox/.next/server/chunks/[root-of-the-server]__9c1e._.js:812:21)',
    '    at async (webpack-internal:///(rsc)/./server/engine/shadow/overlay-executor.ts:74:9)',
    '    at async Promise.all (index 1)',
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  ].join('\n');
  return error;
}

describe('readableError', () => {
  it('keeps an AppError to its message', () => {
    const error = new AppError('INVALID_HYPOTHESIS', "hypothesis 'fix-2': 'src' cannot be written");
    expect(readableError(error)).toBe("hypothesis 'fix-2': 'src' cannot be written");
  });

  it('turns an unknown error into one line without stack frames or paths into the server', () => {
    const text = readableError(bundledError());
    expect(text).toBe("Cannot find module '…'");
    expect(text).not.toMatch(/\n|\.next|node_modules|webpack-internal|\bat /);
  });

  it('names the kind of a built-in error other than Error, and says something for an empty one', () => {
    expect(readableError(new TypeError('x.y is not a function'))).toBe(
      'TypeError: x.y is not a function',
    );
    expect(readableError(new Error(''))).toBe('Error');
    expect(readableError('')).toBe('unknown error');
    expect(readableError({ code: 7 })).toBe('{"code":7}');
  });
});

describe('readableText', () => {
  it('cuts the frames of a described error and the name of our own error class', () => {
    const described =
      'AppError: went wrong\n    at TaskStep.run (/app/.next/server/app/api/v1/tasks/route.js:1:2)\n    at /app/server/engine/loop/task-step.ts:10:3';
    expect(readableText(`the task could not go on: ${described}`)).toBe(
      'the task could not go on: went wrong',
    );
  });

  it('leaves paths that are not the server’s code, URLs and relative paths alone', () => {
    const text =
      "git clone of https://github.com/acme/server/repo.git failed: '/data/worktrees/c1/calc.py' and server/app.py";
    expect(readableText(text)).toBe(text);
  });

  it('is bounded', () => {
    const long = readableText('x'.repeat(5000));
    expect(long).toHaveLength(1000);
    expect(long.endsWith('…')).toBe(true);
  });
});
