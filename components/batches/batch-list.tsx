'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { formatTime } from '../format';
import { ShortId } from '../short-id';
import { useTRPC } from '../trpc/client';
import { pollInterval, pollMs } from './batch-status';
import { BatchStatusBadge } from './batch-status-badge';
import type { BatchView } from './batch-types';
import { batchName, memberCount } from './member-labels';

/** The batches the person may see, newest first; read again every 2 s while any is tested. */
export function BatchList({ initialBatches }: { readonly initialBatches: readonly BatchView[] }) {
  const trpc = useTRPC();
  const list = useQuery(
    trpc.batches.list.queryOptions(undefined, {
      initialData: initialBatches,
      refetchInterval: (query) =>
        (query.state.data ?? []).some((batch) => pollInterval(batch.status) !== false)
          ? pollMs
          : false,
    }),
  );
  const batches = list.data;

  if (batches.length === 0) {
    return <p className="list-empty">No batches yet. Start one below.</p>;
  }
  return (
    <div className="table-scroll">
      {list.error === null ? null : (
        <p className="form-error" role="alert">
          The list could not be read again: {list.error.message}
        </p>
      )}
      <table className="task-list">
        <caption className="visually-hidden">Batches, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Batch</th>
            <th scope="col">Status</th>
            <th scope="col">Members</th>
            <th scope="col">Repository</th>
            <th scope="col">Created by</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {batches.map((batch) => (
            <tr key={batch.id}>
              <th scope="row">
                <Link href={`/coding/batches/${batch.id}`} className="task-title">
                  {batchName(batch.members)}
                </Link>
                <span className="task-id">
                  <ShortId id={batch.id} what="batch id" />
                </span>
              </th>
              <td>
                <BatchStatusBadge status={batch.status} />
              </td>
              <td>{memberCount(batch.members)}</td>
              <td className="source">{batch.sourceUrl}</td>
              <td>{batch.createdBy}</td>
              <td>
                <time dateTime={batch.createdAt}>{formatTime(batch.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
