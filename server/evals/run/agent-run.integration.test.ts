import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiTokens } from '../../auth';
import { defaultGitUrlPolicy } from '../../engine';
import type { Actor } from '../../tasks/task-api';
import { userIn } from '../../test-support/actors';
import { openScratchRuntime, type ScratchRuntime } from '../../test-support/scratch-runtime';
import type { EvalInstance } from '../eval-instance';
import { calcEvalSet, fixedMean, subtractWith } from '../test-support/calc-eval-set';
import { externalAgent } from './agent-process';
import { writeRunFile } from './run-file';
import { newRunFile, runEvalSet } from './run-set';
import { runtimeAttempts } from './runtime-attempts';

// `eval run --agent mcp` on the engine: each attempt's agent is a small Node program that starts
// the `shadowbox mcp` it is given, as the token it is given, and submits a hypothesis for its task
// through submit_hypotheses: the reference fix for one instance, a wrong one for the other. The
// first is resolved, the second not (pass@1 = 0.5, no tokens: the fixer is external), and every
// token made for an attempt is revoked once it ends.

const wrongSubtract = subtractWith('*');
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

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-agent-'));
  ({ instances } = await calcEvalSet(dir));
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
