import Link from 'next/link';
import { formatTime, shortSha } from '../format';
import { ShortId } from '../short-id';
import { pollInterval, pollMs } from './batch-status';
import { BatchStatusBadge } from './batch-status-badge';
import type { BatchView } from './batch-types';
import { labelsOf } from './member-labels';

/** The batch's identity and status (read again every 2 s while it is tested), and its error. */
export function BatchHeader({ batch }: { readonly batch: BatchView }) {
  const labelOf = labelsOf(batch.members);
  return (
    <header className="task-header">
      <h1>Integration batch</h1>
      <p className="task-status">
        <BatchStatusBadge status={batch.status} role="status" aria-label="Batch status" />{' '}
        <span className="task-byline">
          {batch.createdBy} started it{' '}
          <time dateTime={batch.createdAt}>{formatTime(batch.createdAt)}</time> · batch{' '}
          <ShortId id={batch.id} what="batch id" />
        </span>
      </p>
      {pollInterval(batch.status) === false ? null : (
        <p className="hint">
          Testing the combination: this page follows it (read every {pollMs / 1000} s).
        </p>
      )}
      <dl className="facts">
        <dt>{batch.sourceKind === 'git' ? 'Repository' : 'Archive'}</dt>
        <dd className="mono">{batch.sourceUrl}</dd>
        <dt>Base commit</dt>
        <dd>
          <abbr className="mono" title={batch.baseCommit}>
            {shortSha(batch.baseCommit)}
          </abbr>
        </dd>
        <dt>Runs in the worktree of</dt>
        <dd>
          <Link href={`/coding/${batch.hostTaskId}`}>{labelOf(batch.hostTaskId)}</Link>
        </dd>
        <dt>Created by</dt>
        <dd>{batch.createdBy}</dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={batch.createdAt}>{formatTime(batch.createdAt)}</time>
        </dd>
        <dt>Last change</dt>
        <dd>
          <time dateTime={batch.updatedAt}>{formatTime(batch.updatedAt)}</time>
        </dd>
      </dl>
      {batch.error === null ? null : (
        <p className="task-error" role="alert">
          Could not be tested: {batch.error}
        </p>
      )}
    </header>
  );
}
