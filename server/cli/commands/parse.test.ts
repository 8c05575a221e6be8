import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../cli-io';
import { memoryIo } from '../test-support/memory-io';
import { parseCommand } from './parse';

const fixtures = new URL('../../engine/parsers/fixtures/', import.meta.url);
const fixture = (file: string) => readFile(new URL(file, fixtures), 'utf8');

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('shadowbox parse', () => {
  it('prints exactly one JSON line for a named runner', async () => {
    const run = memoryIo({ stdin: await fixture('pytest-mixed-q.txt') });
    expect(await parseCommand(['--runner', 'pytest'], run)).toBe(0);
    expect(run.out()).toBe(
      '{"passed":6,"failed":2,"skipped":2,"parsed":true,"buildFailed":false,"tests":[]}\n',
    );
    expect(run.err()).toBe('');
  });

  it('accepts --runner=NAME and auto', async () => {
    const run = memoryIo({ stdin: await fixture('cargo-fail-no-fail-fast.txt') });
    expect(await parseCommand(['--runner=auto'], run)).toBe(0);
    expect(JSON.parse(run.out())).toMatchObject({
      passed: 6,
      failed: 1,
      skipped: 2,
      parsed: true,
      buildFailed: false,
    });
  });

  it('exits 0 with parsed: false when the output has no summary', async () => {
    const run = memoryIo({ stdin: await fixture('mocha-load-error.txt') });
    expect(await parseCommand(['--runner', 'mocha'], run)).toBe(0);
    expect(run.out()).toBe(
      '{"passed":0,"failed":0,"skipped":0,"parsed":false,"buildFailed":false,"tests":[]}\n',
    );
  });

  it('reports a compile error as buildFailed, not as a failed test', async () => {
    const run = memoryIo({ stdin: await fixture('cargo-compile-error.txt') });
    expect(await parseCommand(['--runner', 'cargo'], run)).toBe(0);
    expect(JSON.parse(run.out())).toEqual({
      passed: 0,
      failed: 0,
      skipped: 0,
      parsed: true,
      buildFailed: true,
      tests: [],
    });
  });

  it('prints the test ids when the output names every test', async () => {
    const run = memoryIo({ stdin: await fixture('maven-multi-plain.txt') });
    expect(await parseCommand(['--runner', 'maven'], run)).toBe(0);
    expect(JSON.parse(run.out())).toEqual({
      passed: 2,
      failed: 1,
      skipped: 0,
      parsed: true,
      buildFailed: false,
      tests: [
        { id: 'com.example.billing.InvoiceTest.roundsDown', status: 'failed' },
        { id: 'com.example.billing.InvoiceTest.taxesTwentyPercent', status: 'passed' },
        { id: 'com.example.catalog.SkuTest.trims', status: 'passed' },
      ],
    });
  });

  it('refuses an unknown runner, naming it and the valid ones', async () => {
    const run = memoryIo();
    expect(await parseCommand(['--runner', 'cargoo'], run)).toBe(2);
    expect(run.err()).toContain("'cargoo'");
    expect(run.err()).toContain('auto, cargo, nextest, go, pytest');
    expect(run.out()).toBe('');
  });

  it('refuses a missing --runner, listing the valid ones', async () => {
    const run = memoryIo({
      stdin: 'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
    });
    expect(await parseCommand([], run)).toBe(2);
    expect(run.err()).toMatch(/--runner is required.*swift-testing/);
    expect(run.out()).toBe('');
  });

  it('refuses unknown options and stray arguments', async () => {
    const unknown = memoryIo();
    expect(await parseCommand(['--runner', 'go', '--verbose'], unknown)).toBe(2);
    expect(unknown.err()).toContain('--verbose');
    const stray = memoryIo();
    expect(await parseCommand(['--runner', 'go', 'out.txt'], stray)).toBe(2);
    expect(stray.err()).toContain('out.txt');
  });

  it('prints usage for --help', async () => {
    const run = memoryIo();
    expect(await parseCommand(['--help'], run)).toBe(0);
    expect(run.out()).toContain('Usage: shadowbox parse --runner NAME < OUTPUT');
    expect(run.out()).toContain('swift-testing');
  });

  it('parses JUnit files and directories given with --junit, relative to the cwd', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'shadowbox-parse-'));
    scratch.push(dir);
    await mkdir(path.join(dir, 'reports'));
    await writeFile(path.join(dir, 'reports', 'TEST-a.xml'), await fixture('pytest-junit.xml'));
    await writeFile(path.join(dir, 'reports', 'TEST-b.xml'), await fixture('mocha-xunit.xml'));
    await writeFile(path.join(dir, 'reports', 'notes.txt'), 'not a report');
    await writeFile(path.join(dir, 'vitest.xml'), await fixture('vitest-junit.xml'));

    const run = memoryIo({ stdin: 'ignored', cwd: dir });
    expect(await parseCommand(['--junit', 'reports', '--junit=vitest.xml'], run)).toBe(0);
    const result = JSON.parse(run.out()) as { tests: { id: string }[] };
    expect(result).toMatchObject({ passed: 11, failed: 6, skipped: 6, parsed: true });
    // Three reports, each naming all of its tests: the list is theirs, in file order.
    expect(result.tests).toHaveLength(23);
    expect(result.tests[0]).toEqual({ id: 'test_mixed.test_ok', status: 'passed' });
  });

  it('refuses a --junit path that cannot be read', async () => {
    const run = memoryIo();
    expect(await parseCommand(['--junit', 'missing.xml'], run)).toBe(2);
    expect(run.err()).toContain("'missing.xml'");
    expect(run.err()).toContain('ENOENT');
  });

  it('reads stdin delivered in many chunks', async () => {
    const text = await fixture('go-mixed-json.txt');
    const run = memoryIo();
    const chunks = text.match(/[\s\S]{1,97}/g) ?? [];
    const io: CliIo = { ...run, stdin: Readable.from(chunks) };
    expect(await parseCommand(['--runner', 'go'], io)).toBe(0);
    expect(JSON.parse(run.out())).toMatchObject({
      passed: 3,
      failed: 3,
      skipped: 2,
      parsed: true,
      buildFailed: true,
    });
  });
});
