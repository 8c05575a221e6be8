'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import { errorInfo } from '../errors/error-info';
import { plural } from '../format';
import { useTRPC } from '../trpc/client';
import type { ReviewSummary, ReviewVerdict, TaskStatus, TaskView } from '../trpc/router-types';
import { isSubmitShortcut } from './conversation/review-keys';
import { DecisionLine } from './decision-line';
import type { Decision } from './decision';
import { DismissRequests } from './dismiss-requests';
import { ReviewStateLine } from './review-state-line';
import { submittedText, type Viewer } from './review-state';

/** What this person may do to the review now (components/task-page/task-actions.ts). */
export interface ReviewActions {
  /** Verdicts: approve, request changes, reject (a reviewer, while the task is under review). */
  readonly review: boolean;
  /** Comments: line comments, replies, a review that only comments. */
  readonly comment: boolean;
  readonly reopen: boolean;
  /** Under review, and this person may not approve or reject it. */
  readonly reviewRefused: boolean;
}

type Outcome = { readonly kind: 'done' | 'refused'; readonly text: string };

const verdictWords: Readonly<Record<ReviewVerdict | 'reject', string>> = {
  comment: 'sent',
  request_changes: 'sent',
  approve: 'approved',
  reject: 'rejected',
};

/**
 * The review of the hash shown: its SHA-256, where the conversation stands, a summary and the
 * verdicts (Comment, Request changes, Approve, and Reject). Every verdict sends the SHA-256 shown
 * here: the server refuses (409 STALE_DIFF) if the diff is no longer that one, and the current
 * one is loaded. The person's drafts go with their review; an approval is refused while threads
 * are open (OPEN_THREADS, naming where) or another reviewer's request for changes stands.
 */
export function ReviewBar({
  taskId,
  sha256,
  status,
  actions,
  decision,
  review,
  drafts,
  staleDrafts,
  openThreads,
  viewer,
  onStale,
}: {
  readonly taskId: string;
  readonly sha256: string;
  readonly status: TaskStatus;
  readonly actions: ReviewActions;
  /** The newest verdict (the server's record of who, when and on which hash). */
  readonly decision: Decision | null;
  readonly review: ReviewSummary;
  /** The person's drafts on the diff shown: the next review sends them. */
  readonly drafts: number;
  /** Their drafts on another diff: a review is refused until they are deleted. */
  readonly staleDrafts: number;
  /** Open threads on the diff shown. */
  readonly openThreads: number;
  readonly viewer: Viewer | null;
  /** The diff changed under the reviewer: load the current one. */
  readonly onStale: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [summary, setSummary] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const settled = (view: TaskView): void => {
    queryClient.setQueryData(trpc.tasks.get.queryKey({ taskId }), view);
    void queryClient.invalidateQueries({ queryKey: trpc.reviews.pathKey() });
  };
  const refused = (failure: unknown, verdict: ReviewVerdict | 'reject'): void => {
    const info = errorInfo(failure);
    if (info.appCode === 'STALE_DIFF' && staleDrafts === 0) {
      setOutcome({
        kind: 'refused',
        text: `Not ${verdictWords[verdict]}: the diff changed since this page loaded. The current diff is shown now: review it again. (${info.message})`,
      });
      onStale();
    } else {
      setOutcome({ kind: 'refused', text: info.message });
    }
  };
  const submit = useMutation(
    trpc.reviews.submit.mutationOptions({
      onSuccess: (view, input) => {
        settled(view);
        setSummary('');
        setOutcome({ kind: 'done', text: submittedText(input.verdict, input.sha256) });
      },
      onError: (failure, input) => refused(failure, input.verdict),
    }),
  );
  const reject = useMutation(
    trpc.tasks.review.mutationOptions({
      onSuccess: (view, input) => {
        settled(view);
        setOutcome({ kind: 'done', text: `Rejected the diff ${input.sha256}.` });
      },
      onError: (failure) => refused(failure, 'reject'),
    }),
  );
  const reopen = useMutation(
    trpc.tasks.reopen.mutationOptions({
      onSuccess: (view) => {
        settled(view);
        setOutcome({ kind: 'done', text: 'Reopened: the task is under review again.' });
      },
      onError: (failure) => setOutcome({ kind: 'refused', text: errorInfo(failure).message }),
    }),
  );
  const busy = submit.isPending || reject.isPending || reopen.isPending;
  const underReview = status === 'awaiting_review';
  const canComment = actions.comment && underReview;
  const note = summary.trim();
  const send = (verdict: ReviewVerdict): void => {
    setOutcome(null);
    submit.mutate({ taskId, verdict, sha256, ...(note === '' ? {} : { summary: note }) });
  };
  const onSummaryKey = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (!isSubmitShortcut(event)) return;
    event.preventDefault();
    if (canComment && !busy) send('comment');
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
      <ReviewStateLine review={review} openThreads={openThreads} />
      {review.state === 'changes_requested' ? (
        <DismissRequests taskId={taskId} viewer={viewer} />
      ) : null}
      {canComment || actions.review ? (
        <div className="field">
          <label htmlFor="review-summary">Review summary (optional)</label>
          <textarea
            id="review-summary"
            rows={2}
            maxLength={20_000}
            value={summary}
            placeholder="Markdown · Ctrl+Enter: Comment"
            onChange={(event) => setSummary(event.target.value)}
            onKeyDown={onSummaryKey}
          />
          <p className="hint">
            {plural(drafts, 'draft comment')} will be sent with your review ·{' '}
            {plural(openThreads, 'open thread')} on this diff
            {staleDrafts === 0
              ? null
              : ` · ${plural(staleDrafts, 'draft')} on another diff (delete ${staleDrafts === 1 ? 'it' : 'them'} first)`}
          </p>
        </div>
      ) : null}
      {actions.reviewRefused ? (
        <p className="notice" role="note">
          Only reviewers can approve or reject. You can still download the patch
          {actions.comment ? ', comment on lines and reply to threads' : ''}.
        </p>
      ) : null}
      <div className="actions">
        {canComment ? (
          <button type="button" disabled={busy} onClick={() => send('comment')}>
            Comment
          </button>
        ) : null}
        {actions.review ? (
          <>
            <button type="button" disabled={busy} onClick={() => send('request_changes')}>
              Request changes
            </button>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => send('approve')}
            >
              Approve
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                setOutcome(null);
                reject.mutate({
                  taskId,
                  verdict: 'reject',
                  sha256,
                  ...(note === '' ? {} : { comment: note }),
                });
              }}
            >
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
        {status === 'approved' ? (
          // The approved change as commits: one per checkpoint, squashed, or as a git bundle.
          <>
            <a href={`/coding/${taskId}/series?sha256=${sha256}`} download className="button">
              Download series
            </a>
            <a
              href={`/coding/${taskId}/series?squash=1&sha256=${sha256}`}
              download
              className="button"
            >
              Download squashed
            </a>
            <a href={`/coding/${taskId}/bundle?sha256=${sha256}`} download className="button">
              Download bundle
            </a>
          </>
        ) : null}
      </div>
      {outcome === null ? null : (
        <p className={outcome.kind === 'done' ? 'outcome' : 'form-error'} role="alert">
          {outcome.text}
        </p>
      )}
    </div>
  );
}
