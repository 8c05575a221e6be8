'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { useTRPC } from '../trpc/client';
import { canApply } from '@/server/engine/lifecycle';
import type { TaskStatus } from '../trpc/router-types';

/**
 * The hash under review and the verdict bound to it: Approve and Reject send the SHA-256 shown
 * here, and the server refuses (409 STALE_DIFF) if the diff is no longer that one.
 */
export function ReviewBar({
  taskId,
  sha256,
  status,
  onStale,
}: {
  readonly taskId: string;
  readonly sha256: string;
  readonly status: TaskStatus;
  /** The diff changed under the reviewer: load the current one. */
  readonly onStale: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const [outcome, setOutcome] = useState<{ kind: 'done' | 'refused'; text: string } | null>(null);
  const review = useMutation(
    trpc.tasks.review.mutationOptions({
      onSuccess: (view, input) => {
        queryClient.setQueryData(trpc.tasks.get.queryKey({ taskId }), view);
        const verb = input.verdict === 'approve' ? 'Approved' : 'Rejected';
        setOutcome({ kind: 'done', text: `${verb} the diff ${input.sha256}.` });
      },
      onError: (failure, input) => {
        const info = errorInfo(failure);
        if (info.appCode === 'STALE_DIFF') {
          setOutcome({
            kind: 'refused',
            text: `Not ${input.verdict === 'approve' ? 'approved' : 'rejected'}: the diff changed since this page loaded. The current diff is shown now: review it again. (${info.message})`,
          });
          onStale();
        } else {
          setOutcome({ kind: 'refused', text: info.message });
        }
      },
    }),
  );
  const decide = (verdict: 'approve' | 'reject'): void => {
    setOutcome(null);
    const note = comment.trim();
    review.mutate({ taskId, verdict, sha256, ...(note === '' ? {} : { comment: note }) });
  };

  return (
    <div className="review-bar">
      <p className="sha">
        <label htmlFor="diff-sha256">Diff SHA-256</label>{' '}
        <output id="diff-sha256" className="mono">
          {sha256}
        </output>
      </p>
      <div className="field">
        <label htmlFor="review-comment">Review comment (optional)</label>
        <textarea
          id="review-comment"
          rows={2}
          maxLength={10_000}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
        />
      </div>
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={!canApply(status, 'task.approved') || review.isPending}
          onClick={() => decide('approve')}
        >
          Approve
        </button>
        <button
          type="button"
          disabled={!canApply(status, 'task.rejected') || review.isPending}
          onClick={() => decide('reject')}
        >
          Reject
        </button>
        <a href={`/coding/${taskId}/patch?sha256=${sha256}`} download className="button">
          Download patch
        </a>
      </div>
      {outcome === null ? null : (
        <p className={outcome.kind === 'done' ? 'outcome' : 'form-error'} role="alert">
          {outcome.text}
        </p>
      )}
    </div>
  );
}
