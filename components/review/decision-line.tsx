import { formatTime } from '../format';
import { decisionParts, type Decision } from './decision';

/**
 * "approved by alice, 14:02 UTC, sha256 3f2a9c1e…": who decided, when, and on which hash (the
 * whole hash and the full date are in the titles). A verdict the task has moved on from (it was
 * reopened) is marked as the previous one.
 */
export function DecisionLine({
  decision,
  current,
}: {
  readonly decision: Decision;
  /** Whether the task's status is still this verdict's. */
  readonly current: boolean;
}) {
  const { verb, by, time, hash } = decisionParts(decision);
  return (
    <p className={`decision decision-${decision.verdict}`} role="status">
      {current ? null : 'Previous verdict: '}
      {verb} by <strong>{by}</strong>,{' '}
      <time dateTime={decision.at} title={formatTime(decision.at)}>
        {time}
      </time>
      , sha256{' '}
      <abbr className="mono" title={decision.sha256}>
        {hash}
      </abbr>
    </p>
  );
}
