import { describe, expect, it } from 'vitest';
import type { TaskView } from '../trpc/router-types';
import { promotable } from './hypotheses-table';
import { defaultPair, fileDiffHtml, treeOptions } from './interdiff-view';

type Iteration = TaskView['iterations'][number];
type Hypothesis = Iteration['hypotheses'][number];

const hypothesis = (name: string, verdict: string, extra: Partial<Hypothesis> = {}) =>
  ({ name, verdict, disqualified: null, error: null, ...extra }) as Hypothesis;

const iteration = (index: number, winner: string | null, hypotheses: Hypothesis[]) =>
  ({ index, status: 'done', winner, checkpointSha: null, hypotheses }) as unknown as Iteration;

const task = (iterations: readonly Iteration[], extra: Partial<TaskView> = {}) =>
  ({
    id: 't',
    status: 'awaiting_review',
    can: { review: true },
    iterations,
    ...extra,
  }) as unknown as TaskView;

const two = task([
  iteration(1, 'small', [hypothesis('small', 'winner'), hypothesis('long', 'passed')]),
  iteration(2, null, [
    hypothesis('breaks', 'failed', { disqualified: 'it broke 1 test that passed before' }),
  ]),
]);

describe('the interdiff pickers', () => {
  it('offer the baseline, then each iteration’s hypotheses and the checkpoint it left', () => {
    expect(treeOptions(two)).toEqual([
      { ref: 'checkpoint:0', label: 'Baseline (checkpoint 0)' },
      { ref: 'hypothesis:1/small', label: 'Iteration 1 · small (winner)' },
      { ref: 'hypothesis:1/long', label: 'Iteration 1 · long (passed)' },
      { ref: 'checkpoint:1', label: 'Checkpoint after iteration 1' },
      { ref: 'hypothesis:2/breaks', label: 'Iteration 2 · breaks (failed)' },
      { ref: 'checkpoint:2', label: 'Checkpoint after iteration 2 (no winner: unchanged)' },
    ]);
  });

  it('open on the newest winner against its runner-up, else on the newest checkpoints', () => {
    expect(defaultPair(task([two.iterations[0]!]))).toEqual([
      'hypothesis:1/small',
      'hypothesis:1/long',
    ]);
    expect(defaultPair(two)).toEqual(['checkpoint:1', 'checkpoint:2']);
    expect(defaultPair(task([]))).toEqual(['checkpoint:0', 'checkpoint:0']);
  });
});

describe('fileDiffHtml', () => {
  it('escapes a hostile diff: its paths and lines are text, never markup', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const rendered = fileDiffHtml(
      [
        `diff --git a/${evil} b/${evil}`,
        'index 1111111111111111111111111111111111111111..2222222222222222222222222222222222222222 100644',
        `--- a/${evil}`,
        `+++ b/${evil}`,
        '@@ -1 +1 @@',
        `-<script>alert("old")</script>`,
        `+${evil}`,
      ].join('\n'),
    );
    expect(rendered).not.toContain('<img');
    expect(rendered).not.toContain('<script');
    expect(rendered).toContain('&lt;img');
    // Word-level marks may split the escaped text (`&lt;<del>script&gt;</del>`): still text.
    expect(rendered).toContain('&lt;<del>script&gt;');
  });
});

describe('promotable', () => {
  it('is the passing runners-up of the newest finished iteration, for a reviewer, under review', () => {
    const one = task([two.iterations[0]!]);
    expect(promotable(one)).toEqual({ index: 1, names: new Set(['long']) });
    // The newest finished iteration has no passing runner-up: nothing to promote.
    expect(promotable(two)).toEqual({ index: 2, names: new Set() });
    expect(
      promotable(task(one.iterations, { can: { review: false } as TaskView['can'] })),
    ).toBeNull();
    expect(promotable(task(one.iterations, { status: 'approved' }))).toBeNull();
  });
});
