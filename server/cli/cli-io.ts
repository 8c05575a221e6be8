import type { Readable } from 'node:stream';

/** What a CLI command may touch of the process: injected so commands are testable without spawning. */
export interface CliIo {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
  readonly stdin: Readable;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A command takes its own arguments (after the command name) and resolves to the exit code. */
export type CliCommand = (args: readonly string[], io: CliIo) => Promise<number>;

/** Exit codes shared by every command. */
export const exitCodes = {
  ok: 0,
  failure: 1,
  /** Policy rejection or invalid input: the request was refused and nothing was changed. */
  rejected: 2,
} as const;
