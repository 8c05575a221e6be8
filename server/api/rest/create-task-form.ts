import { AppError } from '../../errors/app-error';
import { splitCommandLine } from './command-line';

const integerFields = new Set([
  'maxIterations',
  'hypothesesPerIteration',
  'hypothesisWaitSecs',
  'maxTokens',
  'maxMemoryMb',
  'maxPids',
  'maxDiskMb',
  'maxInodes',
]);

/** What a JSON form field must hold, for the message when it does not parse. */
const jsonFields = new Map([
  ['testCommand', 'a JSON array of strings, e.g. ["pytest","-q"]'],
  ['plan', 'JSON (an array of steps)'],
  ['allowTestEdits', 'JSON (true or false)'],
  ['setupCommands', 'a JSON array of commands, each a JSON array of strings, e.g. [["npm","ci"]]'],
]);

/**
 * The fields of `POST /api/v1/tasks` as multipart form fields, which are strings: `testCommand`,
 * `setupCommands` and `plan` are JSON, the counts decimal numbers; `buildCommand` is a JSON array
 * or a command line, `knownFailures` a JSON array or one test id per line. An empty field counts
 * as absent (what an HTML form sends for an unused input).
 */
export function formToInput(
  fields: ReadonlyMap<string, string>,
  options: { readonly fileField: string },
): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (const [name, value] of fields) {
    if (name === options.fileField) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `the field "${name}" must be a file part (with a filename), not a text field`,
      );
    }
    if (value === '') continue;
    entries.push([name, fieldValue(name, value)]);
  }
  // fromEntries defines own properties, so a field named "__proto__" is just an unknown field.
  return Object.fromEntries(entries);
}

function fieldValue(name: string, value: string): unknown {
  const isJsonArray = value.trimStart().startsWith('[');
  if (name === 'buildCommand') {
    return isJsonArray
      ? parseJson(name, value, 'a JSON array of strings or a command line')
      : splitCommandLine(value, name);
  }
  if (name === 'knownFailures') {
    return isJsonArray
      ? parseJson(name, value, 'a JSON array of test ids, or one test id per line')
      : value
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter((line) => line !== '');
  }
  const json = jsonFields.get(name);
  if (json !== undefined) return parseJson(name, value, json);
  if (integerFields.has(name)) return parseInteger(name, value);
  return value;
}

function parseJson(name: string, value: string, what: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new AppError('INVALID_ARGUMENT', `${name} must be ${what}`);
  }
}

function parseInteger(name: string, value: string): number {
  if (!/^\s*\d{1,6}\s*$/.test(value)) {
    throw new AppError('INVALID_ARGUMENT', `${name} must be a whole number`);
  }
  return Number(value);
}
