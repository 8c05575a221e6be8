import { describe, expect, it } from 'vitest';
import { memoryIo } from './test-support/memory-io';
import { main } from './main';

describe('shadowbox main', () => {
  it('lists the commands with --help and exits 0', async () => {
    const cli = memoryIo();
    expect(await main(['--help'], cli)).toBe(0);
    expect(cli.out()).toMatch(/shadow-run .*\n\s+parse .*\n\s+ingest /);
  });

  it('refuses an unknown command with exit 2', async () => {
    const cli = memoryIo();
    expect(await main(['frobnicate'], cli)).toBe(2);
    expect(cli.err()).toContain("unknown command 'frobnicate'");
  });

  it('turns an unknown option into a message and exit 2, not a stack trace', async () => {
    const cli = memoryIo();
    expect(await main(['shadow-run', '--frobnicate', 'spec.json', '--', 'true'], cli)).toBe(2);
    expect(cli.err()).toContain("Unknown option '--frobnicate'");
  });
});
