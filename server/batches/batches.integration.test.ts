// Integration batches (#25 item 5) with real tasks: cloned from a team's forge on loopback (git
// http-backend behind basic auth), set up, tested with pytest in the sandbox and approved. Three
// tasks where two conflict in one file are stopped at the preflight (the pair and the file named,
// nothing run) until one is dropped; the rest pass together, are approved on the combined diff's
// SHA-256 and pushed as one commit per member. Three tasks that merge cleanly but two of which
// break a test together are bisected to exactly that pair.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliActor } from '../auth/actor';
import { GitUrlPolicy } from '../engine/intake';
import { addRemote } from '../remotes/remotes';
import { loadSecretBox } from '../remotes/secret-box';
import type { ServerRuntime } from '../runtime';
import type { Actor, TaskView } from '../tasks/task-api';
import { tokenIn, userIn, teamIn } from '../test-support/actors';
import { startAuthGitHttpServer, type LoopbackServer } from '../test-support/git-http-server';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { uploadTree, waitForView } from '../test-support/task-waits';
import type { BatchView } from './batch-api';

const secret = `batch-forge-token-${Math.random().toString(36).slice(2)}`;
// Three bugs in three files, and a total whose margin one price change keeps but two together do not.
const files = {
  'add.py': 'def add(a, b):\n    return a - b\n',
  'mul.py': 'def mul(a, b):\n    return a + b\n',
  'sub.py': 'def sub(a, b):\n    return a + b\n',
  'discount.py': 'DISCOUNT = 0.0\n',
  'tax.py': 'TAX = 0.0\n',
  'test_calc.py': [
    'from add import add',
    'from mul import mul',
    'from sub import sub',
    'import discount, tax',
    '',
    '',
    'def test_add():',
    '    assert add(2, 3) == 5',
    '',
    '',
    'def test_mul():',
    '    assert mul(2, 3) == 6',
    '',
    '',
    'def test_sub():',
    '    assert sub(5, 3) == 2',
    '',
    '',
    'def test_total_keeps_its_margin():',
    '    assert 100 * (1 - discount.DISCOUNT) * (1 - tax.TAX) >= 90',
    '',
  ].join('\n'),
};
const gitEnv = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'dev',
  GIT_AUTHOR_EMAIL: 'dev@example.invalid',
  GIT_COMMITTER_NAME: 'dev',
  GIT_COMMITTER_EMAIL: 'dev@example.invalid',
};
const longWait = { timeout: 240_000, interval: 100 };

let root: string;
let upstream: string;
let baseline: string;
let forge: LoopbackServer;
let scratch: ScratchRuntime;
let runtime: ServerRuntime;
let agent: Actor;
let reviewer: Actor;
let remoteUrl: string;
/** Approved tasks by name. */
const tasks: Record<'add' | 'addSwapped' | 'subDiscount' | 'mulTax', string> = {
  add: '',
  addSwapped: '',
  subDiscount: '',
  mulTax: '',
};

const upstreamGit = async (args: string[]) =>
  (await execa('git', [`--git-dir=${upstream}`, ...args], { env: gitEnv })).stdout.trim();

/** A task from the forge (or an upload of the same files), fixed by one hypothesis, approved. */
async function approvedTask(
  title: string,
  edits: Record<string, string>,
  from: 'forge' | 'upload' = 'forge',
): Promise<string> {
  const source =
    from === 'forge'
      ? { kind: 'git' as const, url: remoteUrl }
      : {
          kind: 'archive' as const,
          file: await uploadTree(runtime, 'calc', files),
          name: 'calc.tar.gz',
        };
  const { id } = await runtime.tasks.createTask(
    {
      source,
      title,
      testCommand: ['python3', '-m', 'pytest', '-q'],
      maxIterations: 1,
      hypothesesPerIteration: 1,
      team: 'core',
    },
    agent,
  );
  const wait = (done: (task: TaskView) => boolean) => waitForView(runtime, id, agent, done);
  await wait((t) => t.status === 'awaiting_hypotheses');
  await runtime.tasks.submitHypotheses(
    id,
    [
      {
        name: 'fix',
        edits: Object.entries(edits).map(([file, content]) => ({ path: file, content })),
        delete: [],
      },
    ],
    agent,
  );
  const ready = await wait((t) => t.status === 'awaiting_review' || t.status === 'failed');
  // The task's error says why, should a run fail under load.
  expect({ status: ready.status, error: ready.error }).toEqual({
    status: 'awaiting_review',
    error: null,
  });
  await runtime.tasks.review(id, { verdict: 'approve', sha256: ready.diffSha256 ?? '' }, reviewer);
  return id;
}

async function settledBatch(id: string): Promise<BatchView> {
  let view: BatchView | null = null;
  await vi.waitFor(async () => {
    view = await runtime.batches.getBatch(id, reviewer);
    expect(['queued', 'running']).not.toContain(view.status);
  }, longWait);
  return view as unknown as BatchView;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'sbx-batch-'));
  const work = path.join(root, 'work');
  await execa('mkdir', ['-p', work, path.join(root, 'team')]);
  for (const [file, content] of Object.entries(files)) {
    await writeFile(path.join(work, file), content);
  }
  await execa('git', ['init', '-q', '-b', 'main'], { cwd: work, env: gitEnv });
  await execa('git', ['add', '.'], { cwd: work, env: gitEnv });
  await execa('git', ['commit', '-qm', 'calc'], { cwd: work, env: gitEnv });
  upstream = path.join(root, 'team', 'calc.git');
  await execa('git', ['clone', '-q', '--bare', work, upstream], { env: gitEnv });
  baseline = await upstreamGit(['rev-parse', 'refs/heads/main']);
  forge = await startAuthGitHttpServer(root, { username: 'bot', password: secret }, 0);

  const gitPolicy = new GitUrlPolicy({ testOnlyAllowLoopback: true });
  scratch = await openScratchRuntime('sbx-batch-rt-', { gatherMs: 0, gitPolicy });
  runtime = scratch.runtime;
  const box = await loadSecretBox(scratch.dataDir, undefined);
  remoteUrl = `http://127.0.0.1:${forge.port}/team/calc.git`;
  await addRemote(
    { db: runtime.db, box, gitPolicy },
    { name: 'forge', url: remoteUrl, username: 'bot', secret },
    cliActor,
  );
  // Shared with a team where rita reviews: she sees and approves ada's tasks.
  await teamIn(runtime.db, 'core', { ada: 'author', rita: 'reviewer' });
  agent = await tokenIn(runtime.db, 'ada', ['agent']);
  reviewer = await userIn(runtime.db, 'rita', 'reviewer');

  tasks.add = await approvedTask('add adds', { 'add.py': 'def add(a, b):\n    return a + b\n' });
  tasks.addSwapped = await approvedTask('add adds, operands swapped', {
    'add.py': 'def add(a, b):\n    return b + a\n',
  });
  tasks.subDiscount = await approvedTask('sub subtracts; a 5% discount', {
    'sub.py': 'def sub(a, b):\n    return a - b\n',
    'discount.py': 'DISCOUNT = 0.05\n',
  });
  tasks.mulTax = await approvedTask('mul multiplies; a 6% tax', {
    'mul.py': 'def mul(a, b):\n    return a * b\n',
    'tax.py': 'TAX = 0.06\n',
  });
}, 600_000);

afterAll(async () => {
  await scratch.close();
  await forge.close();
  await rm(root, { recursive: true, force: true });
});

describe('integration batches', () => {
  it('stops at the preflight on two tasks that conflict in one file; once one is dropped the rest pass, are approved and pushed', async () => {
    const created = await runtime.batches.createBatch(
      { tasks: [tasks.add, tasks.addSwapped, tasks.mulTax] },
      reviewer,
    );
    expect(created.status).toBe('conflicts');
    expect(created.conflicts).toEqual([
      {
        a: tasks.add,
        b: tasks.addSwapped,
        files: [{ path: 'add.py', hunks: [expect.stringContaining('<<<<<<<')] }],
      },
    ]);
    // Nothing runs until a member is dropped, and nothing can be reviewed.
    expect(created.trials).toEqual([]);
    expect(created.can).toMatchObject({ drop: true, review: false });
    await expect(
      runtime.batches.reviewBatch(
        created.id,
        { verdict: 'approve', sha256: 'a'.repeat(64) },
        reviewer,
      ),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });

    await runtime.batches.dropMember(created.id, tasks.addSwapped, reviewer);
    const tested = await settledBatch(created.id);
    expect(tested.error).toBeNull();
    expect(tested.status).toBe('passed');
    expect(tested.members.find((m) => m.taskId === tasks.addSwapped)?.dropped).toMatchObject({
      by: 'rita',
    });
    expect(tested.trials).toHaveLength(1);
    expect(tested.trials[0]).toMatchObject({
      members: [tasks.add, tasks.mulTax],
      verdict: 'passes',
      broken: [],
      lost: [],
    });
    const diff = await runtime.batches.batchDiff(created.id, reviewer);
    expect(diff.sha256).toBe(tested.diff?.sha256);
    const patch = diff.bytes.toString('utf8');
    expect(patch).toContain('+    return a + b');
    expect(patch).toContain('+    return a * b');
    expect(patch).toContain('+TAX = 0.06');

    // An approval of another diff is refused; of the diff shown, recorded.
    await expect(
      runtime.batches.reviewBatch(
        created.id,
        { verdict: 'approve', sha256: 'b'.repeat(64) },
        reviewer,
      ),
    ).rejects.toMatchObject({ code: 'STALE_DIFF' });
    await expect(
      runtime.batches.pushBatch(created.id, { remote: 'forge' }, reviewer),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });
    const approved = await runtime.batches.reviewBatch(
      created.id,
      { verdict: 'approve', sha256: diff.sha256 },
      reviewer,
    );
    expect(approved.review).toMatchObject({ verdict: 'approve', by: 'rita', sha256: diff.sha256 });

    const pushed = await runtime.batches.pushBatch(created.id, { remote: 'forge' }, reviewer);
    const branch = `shadowbox/batch-${created.id}`;
    expect(pushed).toMatchObject({ remote: 'forge', branch, by: 'rita' });
    expect(await upstreamGit(['rev-parse', `refs/heads/${branch}`])).toBe(pushed.commit);
    // One commit per member, in batch order, on the team's baseline.
    const subjects = await upstreamGit(['log', '--format=%s', `${baseline}..${pushed.commit}`]);
    expect(subjects.split('\n')).toEqual(['mul multiplies; a 6% tax', 'add adds']);
    expect(await upstreamGit(['rev-parse', `${pushed.commit}~2`])).toBe(baseline);
    // The tip's tree is exactly the approved combined diff applied to the baseline.
    const landed = await upstreamGit([
      'diff',
      '--binary',
      '--full-index',
      '--no-renames',
      baseline,
      pushed.commit,
    ]);
    expect(`${landed}\n`).toBe(patch);
    expect((await runtime.batches.getBatch(created.id, reviewer)).pushes).toHaveLength(1);
  });

  it('names the pair of members that merge cleanly but break a test together', async () => {
    const created = await runtime.batches.createBatch(
      { tasks: [tasks.add, tasks.subDiscount, tasks.mulTax] },
      reviewer,
    );
    expect(created.conflicts).toEqual([]);
    const tested = await settledBatch(created.id);
    expect(tested.error).toBeNull();
    expect(tested.status).toBe('failed');
    expect(tested.culprits).toEqual([
      {
        members: [tasks.subDiscount, tasks.mulTax],
        broken: ['test_calc.py::test_total_keeps_its_margin'],
        lost: [],
      },
    ]);
    // The whole batch, then halves and the pairs across them; no member is dropped by itself.
    expect(tested.trials[0]).toMatchObject({
      members: [tasks.add, tasks.subDiscount, tasks.mulTax],
      verdict: 'breaks',
      broken: ['test_calc.py::test_total_keeps_its_margin'],
    });
    expect(tested.members.every((member) => member.dropped === null)).toBe(true);
    expect(tested.diff).toBeNull();
    expect(tested.can).toMatchObject({ drop: true, review: false, push: false });
  });

  it('refuses a batch of one task, of a task named twice, and of tasks not approved', async () => {
    await expect(
      runtime.batches.createBatch({ tasks: [tasks.add] }, reviewer),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'a batch takes 2 to 8 tasks, got 1',
    });
    await expect(
      runtime.batches.createBatch({ tasks: [tasks.add, tasks.add] }, reviewer),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `task ${tasks.add} is named twice`,
    });
    // An author may not start a batch: it lands reviewed work.
    await expect(
      runtime.batches.createBatch({ tasks: [tasks.add, tasks.mulTax] }, agent),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('batches uploads of the same contents, which are tested and reviewed but never pushed', async () => {
    const add = await approvedTask(
      'add adds (upload)',
      { 'add.py': 'def add(a, b):\n    return a + b\n' },
      'upload',
    );
    const mul = await approvedTask(
      'mul multiplies (upload)',
      { 'mul.py': 'def mul(a, b):\n    return a * b\n' },
      'upload',
    );
    // An upload and a Git URL's task are of different repositories, even on the same files.
    await expect(
      runtime.batches.createBatch({ tasks: [add, tasks.mulTax] }, reviewer),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `the tasks come from different repositories (calc.tar.gz, ${remoteUrl}): a batch takes the tasks of one Git URL, or of uploads of the same archive contents`,
    });
    const created = await runtime.batches.createBatch({ tasks: [add, mul] }, reviewer);
    expect(created).toMatchObject({ sourceKind: 'archive', sourceUrl: 'calc.tar.gz' });
    const tested = await settledBatch(created.id);
    expect(tested.status).toBe('passed');
    const approved = await runtime.batches.reviewBatch(
      created.id,
      { verdict: 'approve', sha256: tested.diff?.sha256 ?? '' },
      reviewer,
    );
    expect(approved.can.push).toBe(false);
    await expect(
      runtime.batches.pushBatch(created.id, { remote: 'forge' }, reviewer),
    ).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringContaining('made from an archive') as string,
    });
  });
});
