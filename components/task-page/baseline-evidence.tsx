import type { TaskView } from '../trpc/router-types';
import { TestIds } from './test-ids';
import type { RunSummary } from './timeline-state';

/**
 * Which tests fail at the baseline, by id (from the stored view: the stream's run carries no
 * per-test list), or that there is nothing to fix: the tests already pass.
 */
export function BaselineEvidence({
  run,
  view,
  knownFailures,
}: {
  readonly run: RunSummary;
  readonly view: TaskView['baseline'];
  readonly knownFailures: readonly string[];
}) {
  // How the baseline was read: by test id, or only by what the runner printed.
  const readAs = run.readAs ?? view?.readAs ?? null;
  const reading = readAs === null ? null : <p className="read-as muted">Results read {readAs}</p>;
  if (view?.green ?? run.green) {
    return (
      <>
        <p className="outcome">
          Already green: the tests pass at the baseline
          {knownFailures.length > 0 ? ' (but for the known failures)' : ''}.
        </p>
        {reading}
      </>
    );
  }
  // Until the stored view has the run, the ids are unknown (not "none").
  if (view === null) return reading;
  return (
    <>
      <TestIds label="Failing" ids={view.failingTests} count={run.failed} />
      {reading}
    </>
  );
}
