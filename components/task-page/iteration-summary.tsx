import { formatTime, plural, shortSha } from '../format';
import type { IterationState } from './timeline-state';

/** What one iteration is doing, or what it came to. */
export function IterationSummary({ iteration }: { readonly iteration: IterationState }) {
  if (iteration.state === 'awaiting_hypotheses') {
    return (
      <p>
        Waiting for {plural(iteration.wanted ?? 0, 'hypothesis', 'hypotheses')}
        {iteration.deadline === null ? null : (
          <>
            {' '}
            until <time dateTime={iteration.deadline}>{formatTime(iteration.deadline)}</time>
          </>
        )}
        . Write one below, or let an agent submit them.
      </p>
    );
  }
  if (iteration.state === 'running') {
    const done = iteration.hypotheses.filter((row) => row.state === 'finished').length;
    return (
      <p>
        Running {plural(iteration.hypotheses.length, 'hypothesis', 'hypotheses')}: {done} finished.
      </p>
    );
  }
  if (iteration.state === 'finished') {
    return iteration.winner === null ? (
      <p>No winner: no hypothesis passed.</p>
    ) : (
      <p>
        Winner: <strong>{iteration.winner}</strong>
        {iteration.green === true ? ' (tests pass)' : null}
        {iteration.checkpointSha === null ? null : (
          <>
            , checkpoint <span className="mono">{shortSha(iteration.checkpointSha)}</span>
          </>
        )}
      </p>
    );
  }
  return <p>Started.</p>;
}
