import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io';
import { main } from './main';

function io(): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string) => (out += chunk) },
    stderr: { write: (chunk: string) => (err += chunk) },
    stdin: Readable.from([]),
    cwd: process.cwd(),
    env: {},
    out: () => out,
    err: () => err,
  };
}

describe('shadowbox main', () => {
  it('lists the commands with --help and exits 0', async () => {
    const cli = io();
    expect(await main(['--help'], cli)).toBe(0);
    expect(cli.out()).toMatch(/shadow-run .*\n\s+parse .*\n\s+ingest /);
  });

  it('refuses an unknown command with exit 2', async () => {
    const cli = io();
    expect(await main(['frobnicate'], cli)).toBe(2);
    expect(cli.err()).toContain("unknown command 'frobnicate'");
  });

  it('turns an unknown option into a message and exit 2, not a stack trace', async () => {
    const cli = io();
    expect(await main(['shadow-run', '--frobnicate', 'spec.json', '--', 'true'], cli)).toBe(2);
    expect(cli.err()).toContain("Unknown option '--frobnicate'");
  });
});
