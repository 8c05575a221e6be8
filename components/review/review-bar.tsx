'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { useTRPC } from '../trpc/client';
import type { TaskStatus } from '../trpc/router-types';
import { DecisionLine } from './decision-line';
import type { Decision } from './decision';

/** What this person may do to the review now (components/task-page/task-actions.ts). */
export interface ReviewActions {
  readonly review: boolean;
  readonly reopen: boolean;
  /** Under review, and this person may not approve or reject it. */
  readonly reviewRefused: boolean;
}

/**
 * The hash under review and the verdict bound to it: Approve and Reject send the SHA-256 shown
 * here, and the server refuses (409 STALE_DIFF) if the diff is no longer that one. Only those
 * the server lets review see them; an approved task shows who approved it, and to a reviewer,
 * Reopen.
 */
export function ReviewBar({
  taskId,
  sha256,
  status,
  actions,
  decision,
  onStale,
}: {
  readonly taskId: string;
  readonly sha256: string;
  readonly status: TaskStatus;
  readonly actions: ReviewActions;
  /** The newest verdict (the server's record of who, when and on which hash). */
  readonly decision: Decision | null;
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
  const reopen = useMutation(
    trpc.tasks.reopen.mutationOptions({
      onSuccess: (view) => {
        queryClient.setQueryData(trpc.tasks.get.queryKey({ taskId }), view);
        setOutcome({ kind: 'done', text: 'Reopened: the task is under review again.' });
      },
      onError: (failure) => setOutcome({ kind: 'refused', text: errorInfo(failure).message }),
    }),
  );
  const busy = review.isPending || reopen.isPending;
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
      {decision === null ? null : (
        <DecisionLine
          decision={decision}
          current={status === 'approved' || status === 'rejected'}
        />
      )}
      {actions.review ? (
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
      ) : null}
      {actions.reviewRefused ? (
        <p className="notice" role="note">
          Only reviewers can approve or reject. You can still download the patch.
        </p>
      ) : null}
      <div className="actions">
        {actions.review ? (
          <>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => decide('approve')}
            >
              Approve
            </button>
            <button type="button" disabled={busy} onClick={() => decide('reject')}>
              Reject
            </button>
          </>
        ) : null}
        {actions.reopen ? (
          <button type="button" disabled={busy} onClick={() => reopen.mutate({ taskId })}>
            Reopen
          </button>
        ) : null}
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
