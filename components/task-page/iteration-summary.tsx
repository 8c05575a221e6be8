import { formatTime, plural, shortSha } from '../format';
import type { IterationState, ReviewRound } from './timeline-state';

/** What one iteration is doing, or what it came to; for a review round, who asked for what. */
export function IterationSummary({ iteration }: { readonly iteration: IterationState }) {
  return (
    <>
      {iteration.review === null ? null : <RoundRequest review={iteration.review} />}
      <IterationProgress iteration={iteration} />
    </>
  );
}

/** "Changes requested by alice: “…” (1 open thread to answer)". */
function RoundRequest({ review }: { readonly review: ReviewRound }) {
  return (
    <p className="round-request">
      Changes requested by <strong>{review.by}</strong>
      {review.summary === null ? null : (
        <>
          : <q className="round-summary">{review.summary}</q>
        </>
      )}{' '}
      ({plural(review.threads, 'open thread')} to answer)
    </p>
  );
}

function IterationProgress({ iteration }: { readonly iteration: IterationState }) {
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
