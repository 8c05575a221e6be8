import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRunFile } from '../../evals/run/run-file';
import { newRunFile } from '../../evals/run/run-set';
import { memoryIo, type MemoryIo } from '../test-support/memory-io';
import { evalReportCommand } from './eval-report';

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-report-cli-'));
  const run = newRunFile({
    runId: 'r1',
    set: 'set.jsonl',
    fixer: 'llm',
    model: 'fixer',
    k: 1,
    maxIterations: 1,
    startedAt: '2026-12-06T00:00:00Z',
    instances: [],
  });
  await writeRunFile(path.join(dir, 'RUN.json'), {
    ...run,
    instances: [
      {
        instance_id: '<script>x</script>',
        attempts: [
          {
            attempt: 0,
            state: 'done',
            resolved: true,
            taskId: 't1',
            tokens: 10,
            costUsd: 0.001,
            durationMs: 5,
            iterations: 1,
            why: 'resolved',
          },
        ],
      },
    ],
  });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(args: readonly string[]) {
  const cli: MemoryIo = { ...memoryIo(), cwd: dir };
  const code = await evalReportCommand(args, cli);
  return { code, out: cli.out(), err: cli.err() };
}

describe('shadowbox eval report', () => {
  it('prints the table and writes the HTML page', async () => {
    const result = await run(['RUN.json', '--html', 'report.html']);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/<script>x<\/script>\s+1\/1/);
    const page = await readFile(path.join(dir, 'report.html'), 'utf8');
    expect(page).toContain('&#60;script&#62;x&#60;/script&#62;');
    expect(page).not.toContain('<script>');
  });

  it('refuses a missing file, a file that is not a run, and three runs', async () => {
    expect((await run(['nope.json'])).err).toMatch(/nope.json does not exist/);
    expect((await run(['RUN.json', 'RUN.json', 'RUN.json'])).code).toBe(2);
    const notRun = await run(['../' + path.basename(dir) + '/RUN.json', 'report.html']);
    expect(notRun.code).toBe(2);
    expect(notRun.err).toMatch(/not JSON|not an eval run/);
  });
});
