import { countedNote, TestIds } from './test-ids';
import type { TestDelta } from './timeline-state';

/** What a run did to the tests against its reference: fixed, broke, left failing, lost, added. */
export function TestChanges({ tests }: { readonly tests: TestDelta | null }) {
  if (tests === null) return <span className="muted">—</span>;
  const { counts } = tests;
  if (Object.values(counts).every((n) => n === 0)) return <span className="muted">no change</span>;
  // A runner that prints counts only names no tests: said once for the cell, not per line.
  const counted = !tests.byId;
  return (
    <div className="test-changes">
      <TestIds label="Fixed" ids={tests.fixed} count={counts.fixed} note={!counted} />
      <TestIds label="Broke" ids={tests.broken} count={counts.broken} note={!counted} />
      <TestIds
        label="Still failing"
        ids={tests.stillFailing}
        count={counts.stillFailing}
        note={!counted}
      />
      <TestIds label="Missing" ids={tests.missing} count={counts.missing} note={!counted} />
      <TestIds label="Added" ids={tests.added} count={counts.added} note={!counted} />
      {counted ? <p className="test-ids muted">{countedNote}</p> : null}
    </div>
  );
}
