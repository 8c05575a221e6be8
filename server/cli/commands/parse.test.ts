import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../cli-io';
import { parseCommand } from './parse';

const fixtures = new URL('../../engine/parsers/fixtures/', import.meta.url);
const fixture = (file: string) => readFile(new URL(file, fixtures), 'utf8');

function memoryIo(stdin: string, cwd = process.cwd()) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (chunk: string) => out.push(chunk) },
    stderr: { write: (chunk: string) => err.push(chunk) },
    stdin: Readable.from([Buffer.from(stdin)]),
    cwd,
    env: {},
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('shadowbox parse', () => {
  it('prints exactly one JSON line for a named runner', async () => {
    const run = memoryIo(await fixture('pytest-mixed-q.txt'));
    expect(await parseCommand(['--runner', 'pytest'], run.io)).toBe(0);
    expect(run.stdout()).toBe('{"passed":6,"failed":2,"skipped":2,"parsed":true}\n');
    expect(run.stderr()).toBe('');
  });

  it('accepts --runner=NAME and auto', async () => {
    const run = memoryIo(await fixture('cargo-fail-no-fail-fast.txt'));
    expect(await parseCommand(['--runner=auto'], run.io)).toBe(0);
    expect(JSON.parse(run.stdout())).toEqual({ passed: 6, failed: 1, skipped: 2, parsed: true });
  });

  it('exits 0 with parsed: false when the output has no summary', async () => {
    const run = memoryIo(await fixture('cargo-compile-error.txt'));
    expect(await parseCommand(['--runner', 'cargo'], run.io)).toBe(0);
    expect(run.stdout()).toBe('{"passed":0,"failed":0,"skipped":0,"parsed":false}\n');
  });

  it('refuses an unknown runner, naming it and the valid ones', async () => {
    const run = memoryIo('');
    expect(await parseCommand(['--runner', 'cargoo'], run.io)).toBe(2);
    expect(run.stderr()).toContain("'cargoo'");
    expect(run.stderr()).toContain('auto, cargo, nextest, go, pytest');
    expect(run.stdout()).toBe('');
  });

  it('refuses a missing --runner, listing the valid ones', async () => {
    const run = memoryIo(
      'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
    );
    expect(await parseCommand([], run.io)).toBe(2);
    expect(run.stderr()).toMatch(/--runner is required.*swift-testing/);
    expect(run.stdout()).toBe('');
  });

  it('refuses unknown options and stray arguments', async () => {
    const unknown = memoryIo('');
    expect(await parseCommand(['--runner', 'go', '--verbose'], unknown.io)).toBe(2);
    expect(unknown.stderr()).toContain('--verbose');
    const stray = memoryIo('');
    expect(await parseCommand(['--runner', 'go', 'out.txt'], stray.io)).toBe(2);
    expect(stray.stderr()).toContain('out.txt');
  });

  it('prints usage for --help', async () => {
    const run = memoryIo('');
    expect(await parseCommand(['--help'], run.io)).toBe(0);
    expect(run.stdout()).toContain('Usage: shadowbox parse --runner NAME < OUTPUT');
    expect(run.stdout()).toContain('swift-testing');
  });

  it('parses JUnit files and directories given with --junit, relative to the cwd', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'shadowbox-parse-'));
    scratch.push(dir);
    await mkdir(path.join(dir, 'reports'));
    await writeFile(path.join(dir, 'reports', 'TEST-a.xml'), await fixture('pytest-junit.xml'));
    await writeFile(path.join(dir, 'reports', 'TEST-b.xml'), await fixture('mocha-xunit.xml'));
    await writeFile(path.join(dir, 'reports', 'notes.txt'), 'not a report');
    await writeFile(path.join(dir, 'vitest.xml'), await fixture('vitest-junit.xml'));

    const run = memoryIo('ignored', dir);
    expect(await parseCommand(['--junit', 'reports', '--junit=vitest.xml'], run.io)).toBe(0);
    expect(JSON.parse(run.stdout())).toEqual({ passed: 11, failed: 6, skipped: 6, parsed: true });
  });

  it('refuses a --junit path that cannot be read', async () => {
    const run = memoryIo('');
    expect(await parseCommand(['--junit', 'missing.xml'], run.io)).toBe(2);
    expect(run.stderr()).toContain("'missing.xml'");
    expect(run.stderr()).toContain('ENOENT');
  });

  it('reads stdin delivered in many chunks', async () => {
    const text = await fixture('go-mixed-json.txt');
    const run = memoryIo('');
    const chunks = text.match(/[\s\S]{1,97}/g) ?? [];
    const io: CliIo = { ...run.io, stdin: Readable.from(chunks) };
    expect(await parseCommand(['--runner', 'go'], io)).toBe(0);
    expect(JSON.parse(run.stdout())).toEqual({ passed: 3, failed: 3, skipped: 2, parsed: true });
  });
});
