import type { ShadowRunner } from '../create-shadow-runner';
import type { Hypothesis } from '../hypothesis';
import type { HypothesisResult, ShadowRunReport } from '../shadow-report';
import type { ShadowRunRequest } from '../shadow-request';

/** A hypothesis that writes `edits` (path → content) and deletes nothing. */
export const hypothesis = (name: string, edits: Record<string, string> = {}): Hypothesis => ({
  name,
  edits: Object.entries(edits).map(([p, content]) => ({ path: p, content })),
  delete: [],
});

export const byName = (report: ShadowRunReport, name: string): HypothesisResult => {
  const found = report.hypotheses.find((h) => h.name === name);
  if (found === undefined) throw new Error(`no hypothesis ${name}`);
  return found;
};

/** Records the baseline in a shadow, then judges `hypotheses` against it (as the loop does). */
export async function judge(
  runner: ShadowRunner,
  request: Omit<ShadowRunRequest, 'hypotheses'>,
  hypotheses: readonly Hypothesis[],
): Promise<{ baseline: HypothesisResult; report: ShadowRunReport }> {
  const base = await runner.run({ ...request, hypotheses: [hypothesis('baseline')] });
  const baseline = byName(base, 'baseline');
  const report = await runner.run({ ...request, hypotheses, reference: baseline });
  return { baseline, report };
}
