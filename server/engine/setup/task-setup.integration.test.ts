import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { testGit } from '../../test-support/git-fixtures';
import { parseEgressAllow, readToolConfig } from '../egress';
import type { LoopTask, SetupRunResult } from '../loop/loop-ports';
import { probeSandbox } from '../sandbox/probe';
import type { SandboxHost } from '../sandbox/sandbox-host';
import { SetupCache } from './setup-cache';
import { createTaskSetup } from './task-setup';

/**
 * The setup port on real worktrees, in the real sandbox: the attack of issue 21 (a workspace
 * package's postinstall plants node_modules/.bin/node; another person uploading the same project
 * got `setup: cached` and ran the plant) no longer crosses people or teams.
 */

let dataDir: string;
let bare: string;
let baseline: string;
let setup: ReturnType<typeof createTaskSetup>;

const planted = '#!/bin/sh\necho planted\n';

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-task-setup-'));
  const scratchRoot = path.join(dataDir, 'shadows');
  const probe = await probeSandbox(scratchRoot, { hidden: [dataDir] });
  if (probe.mode !== 'overlay') throw new Error(probe.reason);
  const host: SandboxHost = probe;
  const toolEnv = (await readToolConfig()).env;

  // The project: a root package.json and lockfile, and a workspace package whose postinstall
  // plants a `node` in node_modules/.bin (npm's `#!/usr/bin/env node` would find it first).
  const work = path.join(dataDir, 'project');
  await mkdir(path.join(work, 'packages/helper'), { recursive: true });
  await writeFile(
    path.join(work, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', private: true, workspaces: ['packages/*'] }),
  );
  await writeFile(
    path.join(work, 'packages/helper/package.json'),
    JSON.stringify({ name: 'helper', version: '1.0.0', scripts: { postinstall: 'node plant.js' } }),
  );
  await writeFile(
    path.join(work, 'packages/helper/plant.js'),
    `const fs = require('node:fs');\n` +
      `fs.mkdirSync('../../node_modules/.bin', { recursive: true });\n` +
      `fs.writeFileSync('../../node_modules/.bin/node', ${JSON.stringify(planted)}, { mode: 0o755 });\n`,
  );
  // The lockfile without running anything of the project.
  await execa(
    'npm',
    ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'],
    { cwd: work, env: toolEnv },
  );
  await testGit(work, ['init', '-q', '-b', 'main']);
  await testGit(work, ['add', '-A']);
  await testGit(work, ['commit', '-q', '-m', 'project']);
  bare = path.join(dataDir, 'sources/project.git');
  await testGit(dataDir, ['clone', '-q', '--bare', work, bare]);
  baseline = await testGit(bare, ['rev-parse', 'HEAD']);

  setup = createTaskSetup({
    host,
    unavailableReason: null,
    scratchRoot: () => scratchRoot,
    cache: new SetupCache(path.join(dataDir, 'setup-cache')),
    allowlist: () => Promise.resolve(parseEgressAllow('none', { entries: [] })),
    toolEnv: () => Promise.resolve(toolEnv),
    gitDirOf: () => bare,
  });
}, 120_000);

function taskOf(id: string, ownerId: string | null, teamId: string | null): LoopTask {
  return {
    id,
    status: 'setup',
    source: { kind: 'archive', name: 'project.tar.gz' },
    title: 'project.tar.gz',
    problem: '',
    issueUrl: null,
    testCommand: ['npm', 'test'],
    maxIterations: 1,
    hypothesesPerIteration: 1,
    hypothesisWaitMs: 1000,
    maxWallClockMs: 600_000,
    startedAt: null,
    sourceId: 'project',
    ownerId,
    teamId,
    baselineCommit: baseline,
    checkpointSha: baseline,
    iterationCount: 0,
    cancelRequestedBy: null,
    reviewNowRequestedBy: null,
    fixer: 'external',
    allowTestEdits: false,
    maxTokens: null,
    tokensUsed: 0,
    limits: {},
    setupCommands: null,
    buildCommand: null,
    knownFailures: [],
    setup: null,
    openSteps: [],
    diffSha256: null,
    currentIteration: null,
    baselineRun: null,
    lastRun: null,
    referenceRun: null,
    recentlyBroken: [],
    review: null,
  };
}

async function runSetupOf(task: LoopTask): Promise<SetupRunResult & { lines: string[] }> {
  const worktree = path.join(dataDir, 'worktrees', task.id);
  await testGit(bare, ['worktree', 'add', '-q', '--detach', worktree, baseline]);
  const workspace = { path: worktree };
  const plan = await setup.plan(task, workspace as Parameters<typeof setup.plan>[1]);
  const lines: string[] = [];
  const result = await setup.run(task, workspace as Parameters<typeof setup.run>[1], plan, {
    onLine: (line) => lines.push(line),
    signal: new AbortController().signal,
    timeoutMs: 120_000,
  });
  return { ...result, lines };
}

describe('task setup: the cache belongs to the task owner', () => {
  it("regression: person A's planted node_modules/.bin/node is never restored for person B", async () => {
    const first = await runSetupOf(taskOf('a-first', 'person-a', null));
    expect(first).toMatchObject({ ok: true, cached: false, error: null });
    expect(first.lines[0]).toBe('$ npm ci --no-audit --no-fund');
    const plantedA = path.join(dataDir, 'worktrees/a-first/node_modules/.bin/node');
    expect(await readFile(plantedA, 'utf8')).toBe(planted);

    // The same person's next task of the same project restores it (the cache works)…
    const again = await runSetupOf(taskOf('a-second', 'person-a', null));
    expect(again).toMatchObject({ ok: true, cached: true });
    expect(again.lines).toEqual(['setup: cached (restored node_modules)']);

    // …and nobody else's does: another person in another team, the first person's team, or a
    // task that belongs to no one all install for themselves.
    for (const [id, ownerId, teamId] of [
      ['b-other-team', 'person-b', 'team-b'],
      ['b-own', 'person-b', null],
      ['a-team', 'person-a', 'team-a'],
      ['no-owner', null, null],
    ] as const) {
      const other = await runSetupOf(taskOf(id, ownerId, teamId));
      expect(other, id).toMatchObject({ ok: true, cached: false });
      expect(other.lines[0], id).toBe('$ npm ci --no-audit --no-fund');
      expect(
        other.lines.some((l) => l.startsWith('setup: cached')),
        id,
      ).toBe(false);
    }
  }, 300_000);

  it('a tampered entry is refused and setup installs instead', async () => {
    const task = taskOf('c-first', 'person-c', null);
    expect(await runSetupOf(task)).toMatchObject({ ok: true, cached: false });
    // Whatever changes a stored entry (here: the planted program rewritten in the cache itself).
    const cacheDir = path.join(dataDir, 'setup-cache');
    const { stdout } = await execa('find', [cacheDir, '-path', '*/outputs/node_modules/.bin/node']);
    const stored = stdout.split('\n').filter((l) => l !== '');
    expect(stored.length).toBeGreaterThan(0);
    for (const file of stored) {
      await chmod(file, 0o755);
      await writeFile(file, '#!/bin/sh\necho tampered\n');
    }
    const next = await runSetupOf(taskOf('c-second', 'person-c', null));
    expect(next).toMatchObject({ ok: true, cached: false });
    expect(next.lines[0]).toMatch(
      /^setup: not restored from the cache: cache entry [0-9a-f]{12} refused: node_modules does not match the digest it was stored with$/,
    );
    expect(next.lines[1]).toBe('$ npm ci --no-audit --no-fund');
    expect(
      await readFile(path.join(dataDir, 'worktrees/c-second/node_modules/.bin/node'), 'utf8'),
    ).toBe(planted);
  }, 300_000);
});
