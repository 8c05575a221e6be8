import { Readable } from 'node:stream';
import type { CliIo } from '../cli-io';

export interface MemoryIo extends CliIo {
  /** Everything written to stdout so far. */
  out(): string;
  /** Everything written to stderr so far. */
  err(): string;
}

/** A CliIo that records output in memory, for testing commands without spawning them. */
export function memoryIo(
  options: { readonly stdin?: string | readonly Buffer[]; readonly cwd?: string } = {},
): MemoryIo {
  const out: string[] = [];
  const err: string[] = [];
  const input = options.stdin ?? '';
  return {
    stdout: { write: (chunk: string) => out.push(chunk) },
    stderr: { write: (chunk: string) => err.push(chunk) },
    stdin: Readable.from(typeof input === 'string' ? [Buffer.from(input)] : input),
    cwd: options.cwd ?? process.cwd(),
    env: {},
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
