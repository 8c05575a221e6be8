/**
 * Setup figures (the real-repositories issue):
 *  1. a task's first setup (npm ci through the egress proxy) plus its baseline, against a second
 *     task of the same source whose lockfile is unchanged (setup restored from the cache) plus its
 *     baseline; target: the cache hit's setup + baseline ≤ 0.6× the first's;
 *  2. the egress proxy's overhead: `npm ci` through the forwarder and proxy against a direct one;
 *  3. the parse cost per 1,000 test ids, per runner format.
 * Run with `npm run bench:setup [-- --runs 3]`; scratch goes to bench/.work/setup/.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { cliActor } from '../../server/auth/actor';
import { tokenIn } from '../../server/test-support/actors';
import { registryEntry } from '../../server/test-support/egress-fixtures';
import { createRuntime, type ServerRuntime } from '../../server/runtime';
import type { TaskView } from '../../server/tasks/task-api';
import { measureEgressOverhead } from './egress-overhead';
import { measureParseCost } from './parse-cost';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Math.max(1, Number(values.runs));
const work = path.resolve('bench/.work/setup');

// A project with a handful of real dependencies, so that an install is an install.
const dependencies = {
  'is-number': '7.0.0',
  semver: '7.6.3',
  lodash: '4.17.21',
  yargs: '17.7.2',
  chalk: '4.1.2',
  commander: '12.1.0',
};

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function writeArchive(): Promise<string> {
  const project = path.join(work, 'project');
  await rm(project, { recursive: true, force: true });
  await mkdir(project, { recursive: true });
  const manifest = { name: 'bench-setup', version: '1.0.0', private: true, dependencies };
  await writeFile(path.join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await execa('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit'], {
    cwd: project,
  });
  await writeFile(path.join(project, 'calc.js'), 'exports.add = (a, b) => a - b;\n');
  await writeFile(
    path.join(project, 'calc.test.js'),
    [
      "const test = require('node:test');",
      "const assert = require('node:assert');",
      "const semver = require('semver');",
      "const { add } = require('./calc');",
      "test('adds', () => assert.strictEqual(add(2, 3), 5));",
      "test('semver loads', () => assert.ok(semver.valid('1.2.3')));",
      '',
    ].join('\n'),
  );
  const archive = path.join(work, 'project.tar.gz');
  await execa('tar', ['-czf', archive, '-C', project, '.']);
  return archive;
}

async function settle(runtime: ServerRuntime, id: string): Promise<TaskView> {
  for (;;) {
    const task = await runtime.tasks.getTask(id, cliActor);
    if (task.status === 'awaiting_hypotheses') return task;
    if (['failed', 'interrupted', 'cancelled'].includes(task.status)) {
      throw new Error(`task ${id} ended ${task.status}: ${task.error ?? ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** setup + baseline of one task, and whether its setup came from the cache. */
async function setupAndBaseline(
  runtime: ServerRuntime,
  archive: string,
): Promise<{ ms: number; cached: boolean }> {
  // An agent's token; each round's data directory is fresh, so its person is made in it.
  const agent = await tokenIn(runtime.db, 'bench', ['agent']);
  const upload = path.join(runtime.uploadDir, `bench-${Date.now()}.tar.gz`);
  await writeFile(upload, await readFile(archive));
  const { id } = await runtime.tasks.createTask(
    {
      source: { kind: 'archive', file: upload, name: 'bench.tar.gz' },
      testCommand: ['node', '--test'],
    },
    agent,
  );
  const task = await settle(runtime, id);
  if (task.setup === null || task.baseline === null) throw new Error(`task ${id} has no setup`);
  await runtime.tasks.cancel(id, agent).catch(() => undefined);
  return { ms: task.setup.durationMs + task.baseline.durationMs, cached: task.setup.cached };
}

async function cacheFigures(): Promise<{ firstMs: number; hitMs: number; ratio: number }> {
  const archive = await writeArchive();
  const registry = (await execa('npm', ['config', 'get', 'registry'])).stdout.trim();
  const { entry } = await registryEntry(registry);
  const first: number[] = [];
  const hit: number[] = [];
  for (let i = 0; i < runs; i++) {
    // A fresh data directory each round: an empty setup cache, so the first task installs.
    const dataDir = path.join(work, `data-${i}`);
    await rm(dataDir, { recursive: true, force: true });
    const runtime = await createRuntime(
      {
        dataDir,
        database: { provider: 'sqlite', file: path.join(dataDir, 'db.sqlite') },
        egressAllow: `+${entry}`,
      },
      { gatherMs: 100 },
    );
    try {
      const a = await setupAndBaseline(runtime, archive);
      const b = await setupAndBaseline(runtime, archive);
      if (a.cached || !b.cached) throw new Error('expected an install, then a cache hit');
      first.push(a.ms);
      hit.push(b.ms);
    } finally {
      await runtime.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  const firstMs = median(first);
  const hitMs = median(hit);
  return { firstMs, hitMs, ratio: hitMs / firstMs };
}

async function main(): Promise<void> {
  await mkdir(work, { recursive: true });
  const cache = await cacheFigures();
  const egress = await measureEgressOverhead({ runs: Math.max(3, runs) });
  const parse = await measureParseCost();
  const results = { runs, cache, egress, parse };
  await writeFile(path.join(work, 'results-setup.json'), `${JSON.stringify(results, null, 2)}\n`);
  const ms = (n: number): string => `${Math.round(n)} ms`;
  console.log('1. setup + baseline (median of %d):', runs);
  console.log(`   first (npm ci through the proxy)  ${ms(cache.firstMs)}`);
  console.log(`   cache hit (same lockfile)          ${ms(cache.hitMs)}`);
  console.log(
    `   ratio ${cache.ratio.toFixed(2)}× (target ≤ 0.60×) ${cache.ratio <= 0.6 ? 'met' : 'NOT met'}`,
  );
  console.log('2. egress proxy overhead on npm ci:');
  console.log(
    `   direct ${ms(egress.directMs)}, proxied ${ms(egress.proxiedMs)}, ratio ${egress.ratio.toFixed(2)}×`,
  );
  console.log('3. parse cost per 1,000 test ids:');
  for (const p of parse) console.log(`   ${p.runner.padEnd(16)} ${p.msPer1000Ids.toFixed(2)} ms`);
}

await main();
