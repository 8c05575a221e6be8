import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../test-support/memory-io';
import { evalBuildCommand, parseSince, parseTestCommand } from './eval-build';

describe('shadowbox eval build: refused input', () => {
  it.each([
    ['no --out', ['--repo', '.'], '--out SET.jsonl is required'],
    ['neither source', ['--out', 'set.jsonl'], 'give exactly one of --repo PATH and --git URL'],
    [
      'both sources',
      ['--repo', '.', '--git', 'https://example.com/r.git', '--out', 'set.jsonl'],
      'give exactly one of --repo PATH and --git URL',
    ],
    [
      'a bad date',
      ['--repo', '.', '--out', 's.jsonl', '--since', 'yesterday'],
      "--since must be a date such as 2024-05-01 or 2024-05-01T12:00:00Z, got 'yesterday'",
    ],
    [
      'an impossible date',
      ['--repo', '.', '--out', 's.jsonl', '--since', '2024-13-45'],
      "got '2024-13-45'",
    ],
    [
      'a bad --max',
      ['--repo', '.', '--out', 's.jsonl', '--max', '0'],
      "--max must be a positive integer, got '0'",
    ],
    [
      'an empty test command',
      ['--repo', '.', '--out', 's.jsonl', '--test-command', '[]'],
      '--test-command needs a program',
    ],
    [
      'an unknown option',
      ['--repo', '.', '--out', 's.jsonl', '--bogus'],
      "Unknown option '--bogus'",
    ],
    [
      'a stray argument',
      ['--repo', '.', '--out', 's.jsonl', 'extra'],
      "unexpected argument 'extra'",
    ],
    [
      'a missing output directory',
      ['--repo', '.', '--out', '/nonexistent-dir/s.jsonl'],
      "the directory of '/nonexistent-dir/s.jsonl' does not exist",
    ],
  ])('exits 2 naming the problem for %s', async (_what, args, message) => {
    const io = memoryIo();
    expect(await evalBuildCommand(args, io)).toBe(2);
    expect(io.err()).toContain(message);
    expect(io.out()).toBe('');
    expect(existsSync('s.jsonl') || existsSync('set.jsonl')).toBe(false);
  });

  it('prints its help with the exit statuses', async () => {
    const io = memoryIo();
    expect(await evalBuildCommand(['--help'], io)).toBe(0);
    expect(io.out()).toContain('Usage: shadowbox eval build (--repo PATH | --git URL)');
    expect(io.out()).toContain('Exit status: 0');
  });
});

describe('parseSince', () => {
  it('takes a date or an ISO date and time as an instant', () => {
    expect(parseSince('2024-05-01')).toBe('2024-05-01T00:00:00.000Z');
    expect(parseSince('2024-05-01T12:30:00+02:00')).toBe('2024-05-01T10:30:00.000Z');
    expect(parseSince(undefined)).toBeNull();
  });
});

describe('parseTestCommand', () => {
  it('takes a JSON array or words', () => {
    expect(parseTestCommand('["python3","-m","pytest","-k","a b"]')).toEqual([
      'python3',
      '-m',
      'pytest',
      '-k',
      'a b',
    ]);
    expect(parseTestCommand(' cargo  test --quiet')).toEqual(['cargo', 'test', '--quiet']);
    expect(parseTestCommand(undefined)).toBeNull();
  });

  it.each(['[1]', '["pytest", ""]', '   ', '[not json'])('refuses %s', (value) => {
    expect(() => parseTestCommand(value)).toThrow(/--test-command/);
  });
});
