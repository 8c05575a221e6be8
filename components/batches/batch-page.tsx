'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc/client';
import { BatchConflicts } from './batch-conflicts';
import { BatchHeader } from './batch-header';
import { BatchMembers } from './batch-members';
import { BatchPushForm } from './batch-push-form';
import { BatchPushes } from './batch-pushes';
import { pollInterval } from './batch-status';
import { BatchTrials } from './batch-trials';
import type { BatchDiff, BatchView } from './batch-types';
import { CombinedDiff } from './combined-diff';

/**
 * `/coding/batches/[id]`: the batch, its members, the conflicts that hold it, the combinations
 * tested and what breaks, then the combined diff under review and its push. Read again every 2 s
 * while the combination is tested, so the trials appear as they finish.
 */
export function BatchPage({
  initialBatch,
  initialDiff,
}: {
  readonly initialBatch: BatchView;
  /** The combined diff when the page was rendered, if the batch had one. */
  readonly initialDiff: BatchDiff | null;
}) {
  const trpc = useTRPC();
  const batch = useQuery(
    trpc.batches.get.queryOptions(
      { id: initialBatch.id },
      {
        initialData: initialBatch,
        refetchInterval: (query) => pollInterval(query.state.data?.status),
      },
    ),
  ).data;
  const pushable = batch.status === 'approved' && batch.can.push;

  return (
    <div className="batch-page">
      <BatchHeader batch={batch} />
      <BatchMembers batch={batch} />
      {batch.conflicts.length === 0 ? null : <BatchConflicts batch={batch} />}
      <BatchTrials batch={batch} />
      {batch.diff === null ? null : (
        <CombinedDiff batch={{ ...batch, diff: batch.diff }} initialDiff={initialDiff} />
      )}
      {pushable || batch.pushes.length > 0 ? (
        <section aria-labelledby="batch-push-heading">
          <h2 id="batch-push-heading">Push</h2>
          <BatchPushes pushes={batch.pushes} />
          {pushable ? <BatchPushForm batchId={batch.id} /> : null}
        </section>
      ) : null}
    </div>
  );
}
