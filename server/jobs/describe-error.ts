const MAX_ERROR_LENGTH = 4000;

/**
 * The text stored as the job's `lastError`, for operators: name, message and the first stack
 * frames, bounded. It is never shown as it is: a task's stored `error` is made readable (one line,
 * no frames, no paths into the server's code) where it is recorded, in `abandonTask`.
 */
export function describeError(error: unknown): string {
  let text: string;
  if (error instanceof Error) {
    const frames = (error.stack ?? '')
      .split('\n')
      .filter((line) => line.startsWith('    at '))
      .slice(0, 12);
    text = [`${error.name}: ${error.message}`, ...frames].join('\n');
  } else if (typeof error === 'string') {
    text = error;
  } else {
    try {
      // undefined for undefined, functions and symbols, whatever the declared type says.
      const json = JSON.stringify(error) as string | undefined;
      text = json ?? String(error);
    } catch {
      text = String(error);
    }
  }
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
