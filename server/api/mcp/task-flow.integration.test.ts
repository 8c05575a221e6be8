import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotTreeWithTimes as snapshotTree } from '../../test-support/tree-snapshot';
import { cliActor } from '../../auth/actor';
import type { ThreadListView, ThreadView } from '../../reviews';
import type { MilestoneResult, TaskView } from '../../tasks/task-api';
import { userIn } from '../../test-support/actors';
import { editOf, fixtureProject, packProject } from '../../test-support/projects';
import { call, textOf } from './test-support/clients';
import { startRealMcpServer, type RealMcpServer } from './test-support/real-server';

/**
 * A real task driven over MCP at /api/mcp: shadow_run in its worktree, hypotheses, the diff, the
 * plan's milestones checked against gate runs on real checkpoints, and the review's threads.
 */

const project = fixtureProject('pytest-calc');
const { right, wrong } = project.hypotheses;
const allTests = [...project.testCommand];
// The task's own test command runs one file; the gates run every test file there is.
const oneFile = [...project.testCommand, 'test_calc.py'];

let server: RealMcpServer;
let client: Client;
let taskId: string;

function structured(result: CallToolResult): unknown {
  if (result.isError === true) throw new Error(`tool failed: ${textOf(result)}`);
  return result.structuredContent;
}

async function getTask(): Promise<TaskView> {
  return structured(await call(client, 'get_task', { taskId })) as TaskView;
}

async function waitForTask(done: (task: TaskView) => boolean, what: string): Promise<TaskView> {
  const until = Date.now() + 150_000;
  for (;;) {
    const task = await getTask();
    if (done(task)) return task;
    if (task.status === 'failed' || Date.now() > until) {
      throw new Error(`task never got ${what}: ${JSON.stringify(task, null, 1)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function milestone(action: string, step?: number): Promise<MilestoneResult> {
  return structured(
    await call(client, 'milestone', { taskId, action, ...(step === undefined ? {} : { step }) }),
  ) as MilestoneResult;
}

/** Waits until every gate of step N ran on the task's newest checkpoint. */
async function gatesCurrent(step: number): Promise<MilestoneResult> {
  const until = Date.now() + 60_000;
  for (;;) {
    const status = await milestone('status');
    const gates = status.status.steps[step - 1]?.gates ?? [];
    if (gates.length > 0 && gates.every((gate) => gate.lastRun?.current === true)) return status;
    if (Date.now() > until)
      throw new Error(`gates of step ${step} never ran: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  server = await startRealMcpServer({ gatherMs: 200 });
  client = await server.connect(await server.token(['agent']));
  // MCP creates tasks from Git URLs only, and this machine reaches no Git host: the task comes
  // from an archive through the service, and everything after goes over MCP.
  const packed = await packProject(project);
  const upload = path.join(server.runtime.uploadDir, 'mcp-task.tar.gz');
  await copyFile(packed.file, upload);
  await packed.cleanup();
  ({ id: taskId } = await server.runtime.tasks.createTask(
    {
      source: { kind: 'archive', file: upload, name: packed.name },
      testCommand: oneFile,
      maxIterations: 3,
      hypothesesPerIteration: 1,
      allowTestEdits: true,
      plan: [
        { title: 'fix mean', scope: 'calc.py', gates: [allTests] },
        { title: 'keep every test green', gates: [allTests] },
      ],
    },
    // The token's person: the task is theirs, so their agent token sees and drives it.
    await userIn(server.runtime.db, 'alice'),
  ));
}, 300_000);

afterAll(async () => {
  await server.close();
});

describe('a task driven over MCP', () => {
  it('refuses milestone done before the gates ran green', async () => {
    const early = await milestone('done', 1);
    expect(early.accepted).toBe(false);
    expect(early.accepted ? '' : early.reason).toMatch(/^step 1 is not done: /);

    await waitForTask((t) => t.status === 'awaiting_hypotheses', 'to wait for hypotheses');
    const status = await gatesCurrent(1);
    expect(status.status.steps[0]?.gates[0]?.lastRun).toMatchObject({ green: false });
    const red = await milestone('done', 1);
    expect(red).toMatchObject({ accepted: false, status: { current: { index: 1 } } });
    expect(red.accepted ? '' : red.reason).toContain('ran red on the last write');
  });

  it("runs shadow_run in the task's worktree without touching it", async () => {
    const worktree = path.join(server.dataDir, 'worktrees', taskId);
    const before = await snapshotTree(worktree);
    const result = await call(
      client,
      'shadow_run',
      { hypotheses: [wrong, right], command: allTests, taskId },
      { timeout: 170_000 },
    );
    const report = structured(result) as { winner: string | null; applied: boolean };
    expect(report).toMatchObject({ winner: right.name, applied: false });
    expect(textOf(result)).toContain(`on task ${taskId}`);
    expect(textOf(result)).not.toContain(server.dataDir);
    expect(await snapshotTree(worktree)).toEqual(before);
  });

  it('accepts done once the gates ran green on the checkpoint, and serves the diff', async () => {
    const submitted = structured(
      await call(client, 'submit_hypotheses', { taskId, hypotheses: [right] }),
    ) as { accepted: string[] };
    expect(submitted.accepted).toEqual([right.name]);
    const reviewed = await waitForTask((t) => t.status === 'awaiting_review', 'a diff to review');
    expect(reviewed.iterations[0]?.winner).toBe(right.name);

    const diff = structured(await call(client, 'get_diff', { taskId })) as {
      sha256: string;
      diff: string;
    };
    expect(diff.sha256).toBe(reviewed.diffSha256);
    expect(diff.diff).toContain('sum(values) / len(values)');

    await gatesCurrent(1);
    const done = await milestone('done', 1);
    expect(done).toMatchObject({ accepted: true, status: { current: { index: 2 } } });
    expect(done.status.steps[0]).toMatchObject({ index: 1, status: 'done' });
  });

  it('refuses done after a later write that the gates do not pass', async () => {
    // Green for the task's own command (test_calc.py), red for the gates (every test file). On a
    // green checkpoint a hypothesis wins only by adding a passing test: it adds one there too.
    const tests = await readFile(path.join(project.dir, 'test_calc.py'), 'utf8');
    const breaksAGate = {
      name: 'adds-a-failing-test',
      edits: [
        { path: project.buggyFile, content: editOf(right, project.buggyFile) },
        { path: 'test_calc.py', content: `${tests}\n\ndef test_added():\n    assert True\n` },
        { path: 'test_extra.py', content: 'def test_extra():\n    assert False\n' },
      ],
      delete: [],
    };
    const checkpoint = (await getTask()).iterations.at(-1)?.checkpointSha;
    await call(client, 'submit_hypotheses', { taskId, hypotheses: [breaksAGate] });
    const rewritten = await waitForTask(
      (t) => t.status === 'awaiting_review' && t.iterations.length === 2,
      'a second checkpoint',
    );
    expect(rewritten.iterations[1]?.winner).toBe(breaksAGate.name);
    expect(rewritten.iterations[1]?.checkpointSha).not.toBe(checkpoint);

    await gatesCurrent(2);
    const refused = await milestone('done', 2);
    expect(refused.accepted).toBe(false);
    expect(refused.accepted ? '' : refused.reason).toContain('ran red on the last write');
    // A step already done stays done; reset reopens it.
    expect(refused.status.steps[0]?.status).toBe('done');
    const reset = await milestone('reset', 1);
    expect(reset).toMatchObject({ accepted: true, status: { current: { index: 1 } } });
  });

  it('lets the agent read the review threads and reply to them, on the real review service', async () => {
    const { diffSha256 } = await getTask();
    if (diffSha256 === null) throw new Error('no diff under review');
    // Someone who may comment opens a thread on the new file's lines (the service, as the CLI).
    await server.runtime.reviews.submit(
      taskId,
      {
        verdict: 'comment',
        sha256: diffSha256,
        summary: 'one question',
        comments: [
          {
            path: 'test_extra.py',
            side: 'new',
            startLine: 1,
            endLine: 2,
            body: 'why does this test fail on purpose?',
          },
        ],
      },
      cliActor,
    );
    const list = structured(await call(client, 'list_threads', { taskId })) as ThreadListView;
    expect(list).toMatchObject({
      diffSha256,
      threads: [
        {
          status: 'open',
          path: 'test_extra.py',
          side: 'new',
          lines: ['def test_extra():', '    assert False'],
          comments: [{ author: 'cli', body: 'why does this test fail on purpose?' }],
        },
      ],
    });
    const threadId = list.threads[0]?.id ?? '';

    const task = await call(client, 'get_task', { taskId });
    expect((structured(task) as TaskView).review).toMatchObject({
      state: 'commented',
      openThreads: [{ id: threadId }],
    });
    expect(textOf(task)).toMatch(/^review: commented \(round 0 of \d+\)\n/);
    expect(textOf(task)).toContain(`- test_extra.py:1-2 (new) [thread ${threadId}] cli: why`);

    const replied = structured(
      await call(client, 'reply_to_thread', { taskId, threadId, body: 'it shows the gates' }),
    ) as ThreadView;
    expect(replied).toMatchObject({ id: threadId, status: 'open' });
    expect(replied.comments.map((c) => [c.authorKind, c.body])).toEqual([
      ['person', 'why does this test fail on purpose?'],
      ['agent', 'it shows the gates'],
    ]);
  });
});
