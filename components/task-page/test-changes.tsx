import { TestIds } from './test-ids';
import type { TestDelta } from './timeline-state';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * By totals alone nobody knows which tests changed: a run that fixed 3 and broke 2 shows one
 * fewer failure. So the counts are said as what they are, net changes, never "Fixed: 1".
 */
function NetChanges({ counts }: { readonly counts: TestDelta['counts'] }) {
  const failures = counts.broken - counts.fixed;
  const ran = counts.added - counts.missing;
  return (
    <div className="test-changes">
      {failures === 0 ? null : (
        <p className="test-ids">
          Net change in failures: {failures > 0 ? '+' : '−'}
          {plural(Math.abs(failures), 'failure')}
        </p>
      )}
      {counts.stillFailing === 0 ? null : (
        <p className="test-ids">Failing now: {counts.stillFailing}</p>
      )}
      {ran === 0 ? null : (
        <p className="test-ids">
          Net change in tests run: {ran > 0 ? '+' : '−'}
          {plural(Math.abs(ran), 'test')}
        </p>
      )}
      <p className="test-ids muted">
        (by totals only: the runner names no tests, so which tests changed is unknown)
      </p>
    </div>
  );
}

/** What a run did to the tests against its reference: fixed, broke, left failing, lost, added. */
export function TestChanges({ tests }: { readonly tests: TestDelta | null }) {
  if (tests === null) return <span className="muted">—</span>;
  const { counts } = tests;
  if (Object.values(counts).every((n) => n === 0)) return <span className="muted">no change</span>;
  const basis = tests.basis ?? (tests.byId ? 'id' : 'totals');
  if (basis === 'totals') return <NetChanges counts={counts} />;
  return (
    <div className="test-changes">
      <TestIds label="Fixed" ids={tests.fixed} count={counts.fixed} />
      <TestIds label="Broke" ids={tests.broken} count={counts.broken} />
      <TestIds label="Still failing" ids={tests.stillFailing} count={counts.stillFailing} />
      <TestIds label="Missing" ids={tests.missing} count={counts.missing} />
      <TestIds label="Added" ids={tests.added} count={counts.added} />
      {basis === 'inferred' ? (
        <p className="test-ids muted">
          (inferred: the runner names only failing tests; the totals are the same and no test was
          edited)
        </p>
      ) : null}
    </div>
  );
}
