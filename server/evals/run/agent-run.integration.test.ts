import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiTokens } from '../../auth';
import { defaultGitUrlPolicy } from '../../engine';
import type { Actor } from '../../tasks/task-api';
import { userIn } from '../../test-support/actors';
import { testGit } from '../../test-support/git-fixtures';
import { openScratchRuntime, type ScratchRuntime } from '../../test-support/scratch-runtime';
import { parseEvalSet, type EvalInstance } from '../eval-instance';
import { externalAgent } from './agent-process';
import { writeRunFile } from './run-file';
import { newRunFile, runEvalSet } from './run-set';
import { runtimeAttempts } from './runtime-attempts';

// `eval run --agent mcp` on the engine: each attempt's agent is a small Node program that starts
// the `shadowbox mcp` it is given, as the token it is given, and submits a hypothesis for its task
// through submit_hypotheses: the reference fix for one instance, a wrong one for the other. The
// first is resolved, the second not (pass@1 = 0.5, no tokens: the fixer is external), and every
// token made for an attempt is revoked once it ends.

const buggy = `def add(a, b):
    return a + b


def subtract(a, b):
    return a + b


def mean(values):
    return sum(values) // len(values)
`;
const baseTests = `from calc import add


def test_add():
    assert add(2, 3) == 5
`;
const fixedMean = buggy.replace('//', '/');
const wrongSubtract = buggy.replace('return a + b\n\n\ndef mean', 'return a * b\n\n\ndef mean');
const checkout = path.resolve(import.meta.dirname, '../../..');
const sdk = path.join(checkout, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client');

/** The agent: reads its problem, answers a fix chosen by it, then waits to be stopped. */
const agentSource = `
import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from ${JSON.stringify(pathToFileURL(path.join(sdk, 'index.js')).href)};
import { StdioClientTransport } from ${JSON.stringify(pathToFileURL(path.join(sdk, 'stdio.js')).href)};
const env = process.env;
const [command, ...args] = JSON.parse(env.SHADOWBOX_MCP_COMMAND);
const client = new Client({ name: 'fake-agent', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command, args, env: { ...env }, stderr: 'inherit' }));
const problem = readFileSync(env.SHADOWBOX_PROBLEM_FILE, 'utf8');
const content = problem.includes('mean') ? ${JSON.stringify(fixedMean)} : ${JSON.stringify(wrongSubtract)};
const task = await client.callTool({ name: 'get_task', arguments: { taskId: env.SHADOWBOX_TASK_ID } });
const result = await client.callTool({
  name: 'submit_hypotheses',
  arguments: {
    taskId: env.SHADOWBOX_TASK_ID,
    hypotheses: [{ name: 'fix', edits: [{ path: 'calc.py', content }] }],
  },
}, undefined, { timeout: 170000 });
writeFileSync(env.AGENT_LOG_DIR + '/' + env.SHADOWBOX_TASK_ID + '.json', JSON.stringify({
  cwd: process.cwd(), pid: process.pid, token: env.SHADOWBOX_TOKEN, taskError: task.isError === true, result,
}));
console.log('submitted');
// Stays until the eval run stops it: the MCP server may be running the task's iteration.
setInterval(() => {}, 1000);
`;

let scratch: ScratchRuntime;
let owner: Actor;
let dir: string;
let instances: EvalInstance[];

async function patchOf(repo: string, files: Record<string, string>): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(repo, name), content);
  }
  const diff = await testGit(repo, ['diff', '--', ...Object.keys(files)]);
  await testGit(repo, ['checkout', '--', '.']);
  return `${diff}\n`;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-agent-'));
  const repo = path.join(dir, 'calc');
  await testGit(dir, ['init', '-q', '-b', 'main', repo]);
  await writeFile(path.join(repo, 'calc.py'), buggy);
  await writeFile(path.join(repo, 'test_calc.py'), baseTests);
  await testGit(repo, ['add', '-A']);
  await testGit(repo, ['commit', '-q', '-m', 'calc with two bugs']);
  const base = await testGit(repo, ['rev-parse', 'HEAD']);
  const line = (fields: Partial<EvalInstance>) =>
    JSON.stringify({
      repo,
      base_commit: base,
      PASS_TO_PASS: ['test_calc.py::test_add'],
      test_command: ['python3', '-m', 'pytest', '-q'],
      ...fields,
    });
  const testOf = (name: string, check: string) =>
    `${baseTests}\n\ndef test_${name}():\n    from calc import ${name}\n    assert ${check}\n`;
  instances = parseEvalSet(
    [
      line({
        instance_id: 'calc__mean',
        problem_statement: 'mean() floors: mean([1, 2]) is 1, not 1.5',
        test_patch: await patchOf(repo, { 'test_calc.py': testOf('mean', 'mean([1, 2]) == 1.5') }),
        patch: await patchOf(repo, { 'calc.py': fixedMean }),
        FAIL_TO_PASS: ['test_calc.py::test_mean'],
      }),
      line({
        instance_id: 'calc__subtract',
        problem_statement: 'subtract() adds',
        test_patch: await patchOf(repo, {
          'test_calc.py': testOf('subtract', 'subtract(5, 3) == 2'),
        }),
        patch: await patchOf(repo, {
          'calc.py': buggy.replace('a + b\n\n\ndef mean', 'a - b\n\n\ndef mean'),
        }),
        FAIL_TO_PASS: ['test_calc.py::test_subtract'],
      }),
    ].join('\n'),
  );
  await writeFile(path.join(dir, 'agent.mjs'), agentSource);
  scratch = await openScratchRuntime('sbx-eval-agent-rt-', { llm: null, taskConcurrency: 2 });
  owner = await userIn(scratch.runtime.db, 'alice');
}, 60_000);

afterAll(async () => {
  await scratch.close();
  await rm(dir, { recursive: true, force: true });
});

describe('eval run with an external agent over MCP', () => {
  it('resolves the instance the agent fixes, not the other, and revokes every token', async () => {
    const logs: string[] = [];
    const which = instances;
    const run = await runEvalSet({
      instances: which,
      run: newRunFile({
        runId: 'agent',
        set: 'set.jsonl',
        fixer: 'external',
        agent: 'mcp',
        model: 'agent: fake',
        k: 1,
        maxIterations: 1,
        startedAt: new Date().toISOString(),
        instances: which,
      }),
      parallel: 2,
      port: runtimeAttempts({
        runtime: scratch.runtime,
        actor: owner,
        runId: 'agent',
        maxIterations: 1,
        gitPolicy: defaultGitUrlPolicy,
        cwd: dir,
        attemptTimeoutMs: 240_000,
        pollMs: 200,
        fixer: {
          kind: 'external',
          attend: externalAgent({
            db: scratch.runtime.db,
            username: 'alice',
            argv: [process.execPath, path.join(dir, 'agent.mjs')],
            env: { ...process.env, AGENT_LOG_DIR: dir },
            dataDir: scratch.dataDir,
            mcpCommand: [process.execPath, path.join(checkout, 'bin', 'shadowbox.mjs'), 'mcp'],
            databaseUrl: `file:${path.join(scratch.dataDir, 'db.sqlite')}`,
            log: (l) => logs.push(l),
            killGraceMs: 2000,
          }),
        },
      }),
      save: (r) => writeRunFile(path.join(dir, 'RUN.json'), r),
    });
    const why = `${JSON.stringify(run.instances, null, 1)}\n${logs.join('\n')}`;
    expect(run.summary, why).toMatchObject({
      instances: 2,
      attempts: 2,
      resolved: 1,
      'pass@1': 0.5,
      tokens: 0,
      costUsd: 0,
    });
    const [mean, subtract] = run.instances;
    expect(mean?.attempts[0]?.resolved, why).toBe(true);
    expect(subtract?.attempts[0]?.resolved, why).toBe(false);

    // Each agent ran with its own task, a token of alice's, in a scratch directory of its own.
    const seen = await Promise.all(
      run.instances.map(async (i) => {
        const taskId = i.attempts[0]?.taskId ?? '';
        return JSON.parse(await readFile(path.join(dir, `${taskId}.json`), 'utf8')) as {
          cwd: string;
          pid: number;
          token: string;
          taskError: boolean;
        };
      }),
    );
    expect(seen.every((s) => !s.taskError && s.token.startsWith('sbx_'))).toBe(true);
    expect(new Set(seen.map((s) => s.cwd)).size).toBe(2);
    expect(seen.every((s) => !s.cwd.startsWith(dir))).toBe(true);
    expect(logs.filter((l) => l.endsWith(': submitted'))).toHaveLength(2);
    // The agents, which would have waited for ever, were stopped when their attempts ended.
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(seen.map((s) => alive(s.pid))).toEqual([false, false]);

    // Both tokens are revoked now: an agent left running could do nothing more.
    const tokens = await listApiTokens(scratch.runtime.db);
    expect(tokens.map((t) => ({ user: t.user, scopes: t.scopes }))).toEqual([
      { user: 'alice', scopes: ['agent'] },
      { user: 'alice', scopes: ['agent'] },
    ]);
    expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
    await expect(scratch.runtime.authenticate(`Bearer ${seen[0]?.token ?? ''}`)).rejects.toThrow(
      /invalid or revoked/,
    );
  }, 300_000);
});
