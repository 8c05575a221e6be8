import { describe, expect, it } from 'vitest';
import { shortSha } from '../format';
import type { TaskEvent, TimelineItem } from '../trpc/router-types';
import { reduceTimeline } from './timeline-reducer';
import { initialTimeline, liveOutputLines, type TimelineState } from './timeline-state';

const outcome = (name: string, passed: number, failed: number) => ({
  name,
  exitCode: failed === 0 ? 0 : 1,
  signal: null,
  timedOut: false,
  durationMs: 420,
  passed,
  failed,
  skipped: 0,
  parsed: true,
  buildFailed: false,
  // Events carry no per-test list (it stays on the run row).
  cases: [],
  tests: null,
  disqualified: failed === 0 ? null : `${failed} tests failed`,
  changedLines: 2,
  outputTail: `${passed} passed, ${failed} failed`,
  error: null,
});

/** A task's log from creation to review: one iteration with two hypotheses. */
const log: TaskEvent[] = [
  {
    type: 'task.created',
    source: { kind: 'archive', name: 'calc.tgz' },
    testCommand: ['python3', '-m', 'pytest', '-q'],
    maxIterations: 3,
    hypothesesPerIteration: 2,
  },
  { type: 'intake.completed', files: 4, bytes: 900, commit: 'abc123' },
  { type: 'task.preparing' },
  {
    type: 'workspace.ready',
    baselineCommit: 'abc123',
    worktreePath: '/data/worktrees/t1',
    mode: 'overlay',
    fallbackReason: null,
  },
  { type: 'baseline.started', command: ['python3', '-m', 'pytest', '-q'] },
  { type: 'run.output', subject: 'baseline', iteration: 0, lines: ['F.', '1 failed'] },
  {
    type: 'baseline.finished',
    run: { ...outcome('baseline', 1, 1), signal: null, green: false, error: null },
  },
  { type: 'iteration.started', index: 1 },
  {
    type: 'iteration.awaiting_hypotheses',
    index: 1,
    wanted: 2,
    deadline: '2026-11-02T10:10:00.000Z',
  },
  { type: 'hypotheses.submitted', names: ['fix-add', 'noop'], origin: 'human' },
  {
    type: 'iteration.running',
    index: 1,
    hypotheses: [
      { name: 'noop', origin: 'human' },
      { name: 'fix-add', origin: 'human' },
    ],
  },
  { type: 'hypothesis.started', index: 1, name: 'fix-add' },
  { type: 'run.output', subject: 'fix-add', iteration: 1, lines: ['..'] },
  { type: 'hypothesis.finished', index: 1, result: outcome('fix-add', 2, 0) },
  { type: 'hypothesis.finished', index: 1, result: outcome('noop', 1, 1) },
  {
    type: 'iteration.finished',
    index: 1,
    winner: 'fix-add',
    checkpointSha: 'def456',
    green: true,
    ranked: [
      { ...outcome('fix-add', 2, 0), rank: 1 },
      { ...outcome('noop', 1, 1), rank: 2 },
    ],
  },
  { type: 'review.ready', diffSha256: 'f'.repeat(64), flags: flags(), size: 300 },
];

function flags() {
  return {
    files: 1,
    additions: 1,
    deletions: 1,
    bytes: 300,
    testFiles: [],
    deletedTests: [],
    disabledTests: [],
    modeChanges: [],
    binaryFiles: [],
    symlinks: [],
    hiddenCharacters: [],
    large: false,
  };
}

const items = (events: TaskEvent[], from = 1): TimelineItem[] =>
  events.map((event, i) => ({ seq: from + i, createdAt: '2026-11-02T10:00:00.000Z', event }));

const fold = (list: TimelineItem[], state: TimelineState = initialTimeline) =>
  list.reduce(reduceTimeline, state);

describe('reduceTimeline', () => {
  it('builds the timeline of a task from its log', () => {
    const state = fold(items(log));
    expect(state.lastSeq).toBe(log.length);
    expect(state.status).toBe('awaiting_review');
    expect(state.intake).toMatchObject({ state: 'completed', files: 4, commit: 'abc123' });
    expect(state.workspace?.mode).toBe('overlay');
    expect(state.baseline.state).toBe('finished');
    expect(state.baseline.liveOutput).toEqual(['F.', '1 failed']);
    expect(state.baseline.run?.failed).toBe(1);
    expect(state.pending).toEqual([]);
    const [iteration] = state.iterations;
    expect(iteration).toMatchObject({
      index: 1,
      state: 'finished',
      winner: 'fix-add',
      green: true,
    });
    expect(iteration?.hypotheses.map((row) => [row.rank, row.name, row.origin])).toEqual([
      [1, 'fix-add', 'human'],
      [2, 'noop', 'human'],
    ]);
    expect(iteration?.hypotheses[0]?.liveOutput).toEqual(['..']);
    expect(state.review?.diffSha256).toBe('f'.repeat(64));
  });

  it('ignores a repeated seq, so a reconnect that replays never duplicates anything', () => {
    const all = items(log);
    const once = fold(all);
    // The stream dropped after event 12 and the replay started at 10.
    const replayed = fold([...all.slice(0, 12), ...all.slice(9)]);
    expect(replayed).toEqual(once);
    expect(reduceTimeline(once, all[5]!)).toBe(once);
  });

  it('shows what is going on while it happens', () => {
    const state = fold(items(log.slice(0, 12)));
    expect(state.status).toBe('iterating');
    const rows = state.iterations[0]?.hypotheses ?? [];
    expect(rows.map((row) => [row.name, row.state])).toEqual([
      ['noop', 'queued'],
      ['fix-add', 'running'],
    ]);
    const waiting = fold(items(log.slice(0, 10)));
    expect(waiting.status).toBe('awaiting_hypotheses');
    expect(waiting.pending.map((p) => p.name)).toEqual(['fix-add', 'noop']);
    expect(waiting.iterations[0]).toMatchObject({ state: 'awaiting_hypotheses', wanted: 2 });
  });

  it('keeps only the tail of live output', () => {
    const lines = Array.from({ length: liveOutputLines + 50 }, (_, i) => `line ${i}`);
    const state = fold(items([{ type: 'run.output', subject: 'baseline', iteration: 0, lines }]));
    expect(state.baseline.liveOutput).toHaveLength(liveOutputLines);
    expect(state.baseline.liveOutput.at(-1)).toBe(`line ${liveOutputLines + 49}`);
  });

  it('follows the setup: its commands, live output, then its result', () => {
    const started = items([
      { type: 'task.preparing' },
      {
        type: 'setup.started',
        commands: [['npm', 'ci']],
        detected: true,
        reasons: ['package-lock.json → npm ci'],
      },
      { type: 'run.output', subject: 'setup', iteration: 0, lines: ['added 68 packages'] },
    ]);
    const running = fold(started);
    expect(running.status).toBe('setup');
    expect(running.setup).toMatchObject({
      state: 'running',
      commands: [['npm', 'ci']],
      detected: true,
      reasons: ['package-lock.json → npm ci'],
      liveOutput: ['added 68 packages'],
      result: null,
    });
    // Setup output is not the baseline's.
    expect(running.baseline.liveOutput).toEqual([]);

    const finished: TaskEvent = {
      type: 'setup.finished',
      ok: true,
      cached: false,
      durationMs: 5300,
      egress: [
        { host: 'registry.npmjs.org', port: 443, allowed: true, count: 68 },
        { host: 'downloads.example.com', port: 443, allowed: false, count: 1 },
      ],
      failedCommand: null,
      exitCode: 0,
      timedOut: false,
      outputTail: 'added 68 packages',
      error: null,
    };
    const next = items(
      [finished, { type: 'baseline.started', command: ['npm', 'test'] }],
      started.length + 1,
    );
    const done = fold(next, running);
    expect(done.status).toBe('baseline');
    expect(done.setup.state).toBe('finished');
    expect(done.setup.result).toEqual(finished);
    expect(done.setup.liveOutput).toEqual(['added 68 packages']);
    expect(fold([...started, ...started, ...next])).toEqual(done);
  });

  it('keeps a failed setup and the reason the task failed', () => {
    const state = fold(
      items([
        {
          type: 'setup.started',
          commands: [['pip', 'install', '.']],
          detected: false,
          reasons: [],
        },
        {
          type: 'setup.finished',
          ok: false,
          cached: false,
          durationMs: 900,
          egress: [],
          failedCommand: ['pip', 'install', '.'],
          exitCode: 1,
          timedOut: false,
          outputTail: 'ERROR: No matching distribution',
          error: null,
        },
        { type: 'task.failed', reason: "setup 'pip install .' exited with 1" },
      ]),
    );
    expect(state.status).toBe('failed');
    expect(state.setup.result).toMatchObject({ ok: false, failedCommand: ['pip', 'install', '.'] });
    expect(state.notes.map((note) => note.text)).toEqual([
      "Failed: setup 'pip install .' exited with 1",
    ]);
  });

  it('keeps a partial review with the tests that still fail', () => {
    const partial: TaskEvent = {
      type: 'review.ready',
      diffSha256: 'e'.repeat(64),
      flags: flags(),
      size: 200,
      partial: true,
      stillFailing: ['test_net.py::test_download'],
    };
    const state = fold(items([...log.slice(0, -1), partial]));
    expect(state.status).toBe('awaiting_review');
    expect(state.review).toMatchObject({
      partial: true,
      stillFailing: ['test_net.py::test_download'],
    });
  });

  it('records how the task ended and takes a resumed status', () => {
    const end = fold(
      items(
        [
          { type: 'task.approved', sha256: 'a'.repeat(64), by: 'browser' },
          { type: 'task.rejected', sha256: 'a'.repeat(64), by: 'browser' },
          { type: 'task.rolled_back', to: 'abc1234567890' },
        ],
        log.length + 1,
      ),
      fold(items(log)),
    );
    expect(end.status).toBe('rejected');
    expect(end.notes.map((note) => note.kind)).toEqual(['approved', 'rejected', 'rolled_back']);
    const resumed = fold(
      items([{ type: 'task.resumed', status: 'baseline', checkpointSha: null }], 99),
    );
    expect(resumed.status).toBe('baseline');
  });

  it('notes a workspace restored on a worker that lacked it, saying what was rebuilt', () => {
    const state = fold(
      items([
        {
          type: 'workspace.restored',
          checkpointSha: 'c0ffee1234567890',
          worktreePath: '/data/worktrees/t1',
          repository: true,
          bundles: 3,
          worktree: 'created',
        },
        {
          type: 'workspace.restored',
          checkpointSha: 'beef001234567890',
          worktreePath: '/data/worktrees/t1',
          repository: false,
          bundles: 0,
          worktree: 'reset',
        },
      ]),
    );
    expect(state.notes.map((note) => [note.kind, note.text])).toEqual([
      [
        'restored',
        `Workspace restored at checkpoint ${shortSha('c0ffee1234567890')}: repository rebuilt from 3 stored bundles, worktree created`,
      ],
      [
        'restored',
        `Workspace restored at checkpoint ${shortSha('beef001234567890')}: worktree reset`,
      ],
    ]);
  });

  it('reports an intake rejection', () => {
    const state = fold(
      items([
        { type: 'intake.started', source: 'git', location: 'https://example.com/r.git' },
        { type: 'intake.rejected', code: 'GIT_TREE_SYMLINK', message: 'link.txt is a symlink' },
        { type: 'task.failed', reason: 'intake refused the source' },
      ]),
    );
    expect(state.intake.state).toBe('rejected');
    expect(state.intake.rejection?.code).toBe('GIT_TREE_SYMLINK');
    expect(state.status).toBe('failed');
  });

  it('adds up the fixer spend from the totals it reports', () => {
    const spent = (tokens: number, total: number): TaskEvent => ({
      type: 'fixer.spent',
      tokens,
      costMicroUsd: tokens * 2,
      totalTokens: total,
      totalCostMicroUsd: total * 2,
    });
    const all = items([spent(100, 100), spent(50, 150)]);
    const state = fold(all);
    expect(state.spend).toEqual({ tokens: 150, costMicroUsd: 300, decisions: 2 });
    expect(state.notes).toEqual([]);
    expect(fold([...all, ...all])).toEqual(state);
    expect(initialTimeline.spend).toBeNull();
  });

  it('notes gate runs and milestones, once each', () => {
    const all = items([
      {
        type: 'gates.finished',
        commitSha: 'abcdef0123456789',
        gates: [
          { step: 1, gate: 0, argv: ['pytest', '-q'], green: true, exitCode: 0 },
          { step: 2, gate: 0, argv: ['ruff', 'check', 'src dir'], green: false, exitCode: 1 },
        ],
      },
      {
        type: 'gates.finished',
        commitSha: '0123456789abcdef',
        gates: [{ step: 1, gate: 0, argv: ['pytest'], green: true, exitCode: 0 }],
      },
      { type: 'milestone.done', step: 1, commitSha: '0123456789abcdef', by: 'token:ci' },
      { type: 'milestone.reset', step: 1, by: 'browser' },
    ]);
    const state = fold(all);
    expect(state.notes.map((n) => [n.kind, n.text, n.details])).toEqual([
      [
        'gates_red',
        'Gates ran on abcdef012345: 1 of 2 green',
        ['Step 1: pytest -q — green', "Step 2: ruff check 'src dir' — red (exit 1)"],
      ],
      ['gates_green', 'Gates ran on 0123456789ab: 1 of 1 green', ['Step 1: pytest — green']],
      ['step_done', 'Step 1 done by token:ci (checkpoint 0123456789ab)', []],
      ['step_reset', 'Step 1 reopened by browser', []],
    ]);
    // A replay from the start adds nothing; the status is not touched.
    expect(fold(all, state)).toBe(state);
    expect(state.status).toBeNull();
  });

  it('notes a reviewer model comment as advice without changing the status', () => {
    const before = fold(items(log));
    const comment = items(
      [
        {
          type: 'review.commented',
          reviewer: 'model-x',
          verdict: 'looks_good',
          comment: 'Focused fix.',
          diffSha256: 'f'.repeat(64),
        },
      ],
      log.length + 1,
    );
    const state = fold(comment, before);
    expect(state.status).toBe('awaiting_review');
    expect(state.notes).toEqual([
      {
        seq: log.length + 1,
        at: '2026-11-02T10:00:00.000Z',
        kind: 'advice',
        text: 'Reviewer model model-x: looks good on diff ffffffffffff (advisory)',
        details: [],
      },
    ]);
    expect(reduceTimeline(state, comment[0]!)).toBe(state);
  });

  it('starts the review round’s iteration when changes are requested, saying who asked', () => {
    const before = fold(items(log));
    const sha = 'f'.repeat(64);
    const round = items(
      [
        {
          type: 'review.submitted',
          verdict: 'request_changes',
          sha256: sha,
          by: 'alice',
          threads: 1,
          replies: 0,
        },
        {
          type: 'task.changes_requested',
          sha256: sha,
          by: 'alice',
          round: 1,
          iteration: 2,
          summary: 'Explain the blank line.',
          threads: [
            {
              id: 't1',
              path: 'calc.py',
              side: 'new',
              startLine: 3,
              endLine: 5,
              lines: ['', 'def add(a, b):', '    return a + b'],
              comments: [{ author: 'alice', body: 'Why?' }],
            },
          ],
        },
        { type: 'hypotheses.submitted', names: ['answer'], origin: 'agent' },
        { type: 'iteration.running', index: 2, hypotheses: [{ name: 'answer', origin: 'agent' }] },
      ],
      log.length + 1,
    );
    const waiting = fold(round.slice(0, 2), before);
    expect(waiting.status).toBe('awaiting_hypotheses');
    expect(waiting.iterations.map((it) => [it.index, it.state, it.review])).toEqual([
      [1, 'finished', null],
      [
        2,
        'awaiting_hypotheses',
        { round: 1, by: 'alice', summary: 'Explain the blank line.', threads: 1 },
      ],
    ]);
    // The request itself is one note (review.submitted of a request adds none of its own).
    expect(waiting.notes.map((n) => [n.kind, n.text, n.details])).toEqual([
      [
        'changes_requested',
        'Changes requested by alice on diff ffffffffffff: review round 1, iteration 2',
        ['Explain the blank line.', 'calc.py:3–5'],
      ],
    ]);
    const running = fold(round.slice(2), waiting);
    expect(running.status).toBe('iterating');
    expect(running.iterations[1]).toMatchObject({ state: 'running', review: { by: 'alice' } });
    expect(running.pending).toEqual([]);
    expect(fold(round, running)).toBe(running);
  });

  it('notes a review that only comments, and a dismissed request, without changing the status', () => {
    const before = fold(items(log));
    const state = fold(
      items(
        [
          {
            type: 'review.submitted',
            verdict: 'comment',
            sha256: 'f'.repeat(64),
            by: 'bob',
            threads: 2,
            replies: 1,
          },
          { type: 'review.dismissed', reviewId: 'r1', by: 'alice', reason: 'answered in chat' },
        ],
        log.length + 1,
      ),
      before,
    );
    expect(state.status).toBe('awaiting_review');
    expect(state.notes.map((n) => [n.kind, n.text])).toEqual([
      ['commented', 'bob commented on diff ffffffffffff: 2 new threads, 1 reply'],
      ['dismissed', 'alice dismissed a request for changes: answered in chat'],
    ]);
  });

  it('tells who sent a partial fix to review early and who accepted which known failures', () => {
    const state = fold(
      items([
        {
          type: 'task.known_failures',
          by: 'olga',
          added: ['test_calc.py::test_download'],
          knownFailures: ['test_calc.py::test_download'],
        },
        { type: 'review.requested_now', by: 'olga', checkpointSha: 'c'.repeat(40) },
      ]),
    );
    expect(state.notes.map((n) => [n.kind, n.text, n.details])).toEqual([
      [
        'known_failures',
        'olga accepted 1 test that failed before any change as known failures',
        ['test_calc.py::test_download'],
      ],
      [
        'review_now',
        'olga sent checkpoint cccccccccccc to review without waiting for more hypotheses',
        [],
      ],
    ]);
  });

  it('folds one person’s thread actions in a row into one note', () => {
    const thread = (
      threadId: string,
      action: 'replied' | 'resolved' | 'reopened',
      by: string,
    ): TaskEvent => ({ type: 'review.thread', threadId, action, by });
    const all = items([
      thread('t1', 'resolved', 'alice'),
      thread('t2', 'resolved', 'alice'),
      thread('t3', 'resolved', 'alice'),
      thread('t1', 'replied', 'bob (token:x)'),
      thread('t1', 'reopened', 'alice'),
    ]);
    const state = fold(all);
    expect(state.notes.map((n) => [n.seq, n.kind, n.text])).toEqual([
      [1, 'thread', 'alice resolved 3 threads'],
      [4, 'thread', 'bob (token:x) replied to a thread'],
      [5, 'thread', 'alice reopened a thread'],
    ]);
    expect(state.notes[0]?.at).toBe('2026-11-02T10:00:00.000Z');
    expect(fold(all, state)).toBe(state);
  });
});
