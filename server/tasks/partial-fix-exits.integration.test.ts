// The ways out of a partial fix (#23): a test that fails everywhere (an environmental one) next to
// the bug. The right fix wins its iteration by id and leaves it failing; the task must then not
// wait in vain for a fix nobody will send. It goes to review partial at the end of the task's own
// wait (`hypothesisWaitSecs`), at once when a person sends it ("send to review now"), or complete
// when a person accepts the environmental test as a known failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRuntime } from '../runtime';
import type { Hypothesis } from '../engine/shadow';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { tokenIn, teamIn } from '../test-support/actors';
import { uploadTree, waitForView } from '../test-support/task-waits';
import type { Actor, TaskView } from './task-api';

let scratch: ScratchRuntime;
let runtime: ServerRuntime;
/** The owner's agent token, a teammate who may submit but not steer, and a reviewer. */
let owner: Actor;
let teammate: Actor;

const files = {
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'test_calc.py': [
    'from calc import add',
    '',
    '',
    'def test_adds():',
    '    assert add(2, 3) == 5',
    '',
    '',
    'def test_zero():',
    '    assert add(5, 0) == 5',
    '',
    '',
    'def test_download():',
    '    # Environmental: no network in any run, before or after any change.',
    '    raise ConnectionError("no route to pypi.example")',
    '',
  ].join('\n'),
};
const environmental = 'test_calc.py::test_download';
const right: Hypothesis = {
  name: 'adds',
  edits: [{ path: 'calc.py', content: 'def add(a, b):\n    return a + b\n' }],
  delete: [],
};

const waitFor = (
  taskId: string,
  done: (task: TaskView) => boolean,
  timeoutMs = 120_000,
): Promise<TaskView> => waitForView(runtime, taskId, owner, done, timeoutMs);

async function createTask(extra: { hypothesisWaitSecs?: number } = {}): Promise<string> {
  const file = await uploadTree(runtime, 'partial', files);
  const { id } = await runtime.tasks.createTask(
    {
      source: { kind: 'archive', file, name: 'partial.tar.gz' },
      testCommand: ['python3', '-m', 'pytest', '-v'],
      maxIterations: 3,
      hypothesesPerIteration: 1,
      team: 'core',
      ...extra,
    },
    owner,
  );
  return id;
}

/** Baseline, then the right fix: iteration 1 wins by id, iteration 2 waits for hypotheses. */
async function fixedButWaiting(extra: { hypothesisWaitSecs?: number } = {}): Promise<TaskView> {
  const id = await createTask(extra);
  const atBaseline = await waitFor(id, (t) => t.status !== 'queued' && t.baseline !== null);
  expect([...(atBaseline.baseline?.failingTests ?? [])].sort()).toEqual([
    'test_calc.py::test_adds',
    environmental,
  ]);
  await runtime.tasks.submitHypotheses(id, [right], owner);
  return waitFor(
    id,
    (t) =>
      (t.iterations.length === 2 && t.status === 'awaiting_hypotheses') ||
      ['awaiting_review', 'failed', 'interrupted'].includes(t.status),
  );
}

beforeAll(async () => {
  scratch = await openScratchRuntime('sbx-partial-', { gatherMs: 0 });
  runtime = scratch.runtime;
  // Both are authors of the team the tasks are shared with; only olga owns them.
  await teamIn(runtime.db, 'core', { olga: 'author', tom: 'author' });
  owner = await tokenIn(runtime.db, 'olga', ['agent']);
  const tom = await tokenIn(runtime.db, 'tom', ['agent']);
  if (tom.kind !== 'token') throw new Error('tokenIn makes tokens');
  teammate = { kind: 'user', person: tom.person };
}, 120_000);

afterAll(async () => {
  await scratch.close();
});

describe('a partial fix next to an environmental failure', () => {
  it('goes to review partial when its own short wait ends: never interrupted, never rolled back', async () => {
    const waiting = await fixedButWaiting({ hypothesisWaitSecs: 2 });
    expect(waiting.hypothesisWaitSecs).toBe(2);
    expect(waiting.iterations[0]?.winner).toBe(right.name);
    const reviewed = await waitFor(waiting.id, (t) => t.status !== 'awaiting_hypotheses');
    expect(reviewed.status).toBe('awaiting_review');
    expect(reviewed.reviewPartial).toBe(true);
    expect(reviewed.stillFailing).toEqual([environmental]);
    expect(reviewed.error).toBeNull();
    const diff = await runtime.tasks.getDiff(waiting.id, owner);
    expect(diff.diff).toContain('+    return a + b');
  });

  it('is sent to review now by its owner (audited), not by a teammate, and not before anything was fixed', async () => {
    const id = await createTask();
    await waitFor(id, (t) => t.status === 'awaiting_hypotheses');
    await expect(runtime.tasks.sendToReview(id, owner)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: `task ${id} has nothing to review yet: no iteration fixed a failing test (its checkpoint is the baseline)`,
    });
    await runtime.tasks.submitHypotheses(id, [right], owner);
    const waiting = await waitFor(
      id,
      (t) => t.iterations.length === 2 && t.status === 'awaiting_hypotheses',
    );
    expect(waiting.status).toBe('awaiting_hypotheses');
    expect(waiting.can.sendToReview).toBe(true);
    expect((await runtime.tasks.getTask(id, teammate)).can.sendToReview).toBe(false);
    await expect(runtime.tasks.sendToReview(id, teammate)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });

    await runtime.tasks.sendToReview(id, owner);
    const reviewed = await waitFor(id, (t) => t.status !== 'awaiting_hypotheses', 30_000);
    expect(reviewed).toMatchObject({
      status: 'awaiting_review',
      reviewPartial: true,
      stillFailing: [environmental],
      reviewNowRequestedBy: null,
    });
    const audit = await runtime.db.auditLog.findMany({
      where: { target: id, action: 'task.review_now' },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor).toContain('olga');
  });

  it('offers the test that failed before any change as a known failure; accepting it sends the fix to review complete', async () => {
    const waiting = await fixedButWaiting();
    expect(waiting.status).toBe('awaiting_hypotheses');
    // The bug's test was fixed: only the one failing before and after is on offer.
    expect(waiting.knownFailureOffer).toEqual([environmental]);
    expect(waiting.can.acceptKnownFailures).toBe(true);
    await expect(
      runtime.tasks.acceptKnownFailures(waiting.id, ['test_calc.py::test_adds'], owner),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `"test_calc.py::test_adds" cannot be accepted as a known failure: only a test that failed at the baseline and still fails at the newest checkpoint can (these do: ${environmental})`,
    });

    await runtime.tasks.acceptKnownFailures(waiting.id, [environmental], owner);
    const reviewed = await waitFor(waiting.id, (t) => t.status !== 'awaiting_hypotheses', 30_000);
    expect(reviewed).toMatchObject({
      status: 'awaiting_review',
      reviewPartial: false,
      stillFailing: [],
      knownFailures: [environmental],
      knownFailureOffer: [],
    });
    const events = await runtime.db.event.findMany({
      where: { taskId: waiting.id, type: 'task.known_failures' },
    });
    expect(events).toHaveLength(1);
  });

  it('refuses a wait outside 1 to 3600 seconds, naming the setting', async () => {
    await expect(createTask({ hypothesisWaitSecs: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'hypothesisWaitSecs must be a whole number from 1 to 3600, got 0',
    });
  });
});
