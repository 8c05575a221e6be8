import type { TaskView } from '../trpc/router-types';

type Iteration = TaskView['iterations'][number];

/** What the fix under review did to the tests, against the baseline. */
export interface FixTests {
  readonly fixed: readonly string[];
  readonly broken: readonly string[];
  readonly missing: readonly string[];
  readonly counts: { readonly fixed: number; readonly broken: number; readonly missing: number };
}

const union = (lists: readonly (readonly string[])[]): string[] => [...new Set(lists.flat())];

/**
 * The winners' evidence, iteration after iteration: each winner was judged against the
 * checkpoint before it, so together they say what the diff from the baseline fixed and broke.
 * Null when no winner was judged against a reference (a run without one has no evidence).
 */
export function fixTestsOf(iterations: readonly Iteration[]): FixTests | null {
  const deltas = iterations.flatMap((iteration) =>
    iteration.hypotheses.flatMap((h) =>
      h.name === iteration.winner && h.tests !== null ? [h.tests] : [],
    ),
  );
  if (deltas.length === 0) return null;
  const fixed = union(deltas.map((d) => d.fixed));
  const broken = union(deltas.map((d) => d.broken));
  const missing = union(deltas.map((d) => d.missing));
  // Runners that print counts only name no tests: then the counts add up instead.
  const byId = deltas.every((d) => d.byId);
  const sum = (key: 'fixed' | 'broken' | 'missing'): number =>
    deltas.reduce((total, d) => total + d.counts[key], 0);
  return {
    fixed,
    broken,
    missing,
    counts: byId
      ? { fixed: fixed.length, broken: broken.length, missing: missing.length }
      : { fixed: sum('fixed'), broken: sum('broken'), missing: sum('missing') },
  };
}
