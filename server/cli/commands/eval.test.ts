import { describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIo } from '../test-support/memory-io';

describe('shadowbox eval', () => {
  it('lists build, run and report', async () => {
    const cli = memoryIo();
    expect(await main(['eval', '--help'], cli)).toBe(0);
    expect(cli.out()).toMatch(/^\s+build .*\n\s+run .*\n\s+report /m);
  });

  it('refuses a missing or unknown subcommand with exit 2, naming it', async () => {
    const none = memoryIo();
    expect(await main(['eval'], none)).toBe(2);
    expect(none.out()).toContain('Usage: shadowbox eval <build|run|report>');
    const unknown = memoryIo();
    expect(await main(['eval', 'score'], unknown)).toBe(2);
    expect(unknown.err()).toContain("shadowbox eval: unknown subcommand 'score'");
  });

  it("hands the rest of the line to the subcommand: build's own refusal of a missing --out", async () => {
    const cli = memoryIo();
    expect(await main(['eval', 'build', '--repo', '.'], cli)).toBe(2);
    expect(cli.err()).toMatch(/--out/);
  });
});
