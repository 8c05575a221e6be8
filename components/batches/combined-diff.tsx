'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { formatBytes } from '../format';
import { DecisionLine } from '../review/decision-line';
import { DiffViewer } from '../review/diff-viewer';
import { useTRPC } from '../trpc/client';
import type { BatchDiff, BatchView } from './batch-types';

type Outcome = { readonly kind: 'done' | 'refused'; readonly text: string };

/**
 * The combination's diff against the base commit, as a review item of its own: its SHA-256, the
 * verdict when given, and Approve / Reject for a reviewer, which send the hash of the diff shown
 * (the server refuses with STALE_DIFF if the batch's diff is another one now).
 */
export function CombinedDiff({
  batch,
  initialDiff,
}: {
  readonly batch: BatchView & { readonly diff: NonNullable<BatchView['diff']> };
  readonly initialDiff: BatchDiff | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = batch.id;
  const diff = useQuery(
    trpc.batches.diff.queryOptions(
      { id },
      initialDiff === null ? {} : { initialData: initialDiff },
    ),
  );
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  // A member dropped and the combination tested again: the batch names a new diff; read it.
  const shown = diff.data?.sha256 ?? null;
  const current = batch.diff.sha256;
  useEffect(() => {
    if (shown !== null && shown !== current) {
      void queryClient.invalidateQueries(trpc.batches.diff.queryFilter({ id }));
    }
  }, [shown, current, id, queryClient, trpc]);

  const review = useMutation(
    trpc.batches.review.mutationOptions({
      onSuccess: (view, input) => {
        queryClient.setQueryData(trpc.batches.get.queryKey({ id }), view);
        void queryClient.invalidateQueries(trpc.batches.list.queryFilter());
        setOutcome({
          kind: 'done',
          text: `${input.verdict === 'approve' ? 'Approved' : 'Rejected'} the combined diff ${input.sha256}.`,
        });
      },
      onError: (failure) => {
        const info = errorInfo(failure);
        if (info.appCode === 'STALE_DIFF') {
          setOutcome({
            kind: 'refused',
            text: `Not recorded: the combined diff changed since it was shown. The current one is loaded now: review it again. (${info.message})`,
          });
          void queryClient.invalidateQueries(trpc.batches.get.queryFilter({ id }));
          void queryClient.invalidateQueries(trpc.batches.diff.queryFilter({ id }));
        } else {
          setOutcome({ kind: 'refused', text: info.message });
        }
      },
    }),
  );
  const send = (verdict: 'approve' | 'reject'): void => {
    if (diff.data === undefined) return;
    setOutcome(null);
    review.mutate({ id, verdict, sha256: diff.data.sha256 });
  };

  return (
    <section aria-labelledby="combined-diff-heading" className="review">
      <h2 id="combined-diff-heading">Combined diff</h2>
      <div className="review-bar">
        <p className="sha">
          <label htmlFor="combined-diff-sha256">Combined diff SHA-256</label>{' '}
          <output id="combined-diff-sha256" className="mono">
            {diff.data?.sha256 ?? current}
          </output>{' '}
          <span className="muted">({formatBytes(batch.diff.bytes)})</span>
        </p>
        {batch.review === null ? null : (
          <DecisionLine
            decision={batch.review}
            current={batch.status === 'approved' || batch.status === 'rejected'}
          />
        )}
        {batch.can.review ? (
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={review.isPending || diff.data === undefined}
              onClick={() => send('approve')}
            >
              Approve
            </button>
            <button
              type="button"
              disabled={review.isPending || diff.data === undefined}
              onClick={() => send('reject')}
            >
              Reject
            </button>
          </div>
        ) : null}
        {outcome === null ? null : (
          <p className={outcome.kind === 'done' ? 'outcome' : 'form-error'} role="alert">
            {outcome.text}
          </p>
        )}
      </div>
      {diff.error === null ? null : (
        <p className="form-error" role="alert">
          The combined diff could not be read: {diff.error.message}
        </p>
      )}
      {diff.data === undefined ? (
        diff.isPending ? (
          <p className="muted">Loading the combined diff…</p>
        ) : null
      ) : (
        // No diff editor: it reads a task's own files, and a batch has none of its own.
        <DiffViewer key={diff.data.sha256} diff={diff.data.text} />
      )}
    </section>
  );
}
