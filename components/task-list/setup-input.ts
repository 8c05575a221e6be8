import { splitCommandLine } from './command-line';

/** The setup part of the create form as typed. */
export interface SetupValues {
  /** One command line per line; empty: detected from the tree. */
  readonly setupCommands: string;
  /** No setup at all (the commands are ignored). */
  readonly noSetup: boolean;
  readonly buildCommand: string;
  /** One test id per line. */
  readonly knownFailures: string;
}

export const emptySetup: SetupValues = {
  setupCommands: '',
  noSetup: false,
  buildCommand: '',
  knownFailures: '',
};

/** What the server takes; a field left out keeps its default (setup detected, no build). */
export interface SetupInput {
  readonly setupCommands?: string[][];
  readonly buildCommand?: string[];
  readonly knownFailures?: string[];
}

export type SetupField = 'setupCommands' | 'buildCommand' | 'knownFailures';

export type SetupParse =
  | { readonly ok: true; readonly input: SetupInput }
  | { readonly ok: false; readonly field: SetupField; readonly message: string };

const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * Reads the setup fields: each setup line and the build line split as on a command line (argv,
 * no shell), the known failures one id per line. The first problem names its field (and line).
 */
export function setupInputOf(values: SetupValues): SetupParse {
  let setupCommands: string[][] | undefined;
  if (values.noSetup) setupCommands = [];
  else {
    const commands = lines(values.setupCommands);
    setupCommands = [];
    for (const [i, line] of commands.entries()) {
      const split = splitCommandLine(line);
      if (!split.ok) {
        return {
          ok: false,
          field: 'setupCommands',
          message: `Setup command ${i + 1}: ${split.message}`,
        };
      }
      setupCommands.push([...split.argv]);
    }
    // Nothing typed: the server detects the commands from the tree.
    if (setupCommands.length === 0) setupCommands = undefined;
  }
  let buildCommand: string[] | undefined;
  if (values.buildCommand.trim() !== '') {
    const split = splitCommandLine(values.buildCommand);
    if (!split.ok) return { ok: false, field: 'buildCommand', message: split.message };
    buildCommand = [...split.argv];
  }
  const known = lines(values.knownFailures);
  return {
    ok: true,
    input: {
      ...(setupCommands === undefined ? {} : { setupCommands }),
      ...(buildCommand === undefined ? {} : { buildCommand }),
      ...(known.length === 0 ? {} : { knownFailures: known }),
    },
  };
}
