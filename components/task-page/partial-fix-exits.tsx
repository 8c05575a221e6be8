'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { useTRPC } from '../trpc/client';
import type { TaskStatus, TaskView } from '../trpc/router-types';
import { TestId } from './test-ids';

/**
 * The ways out of a partial fix, for whoever may steer the task (its owner, reviewers, admins):
 * send the checkpoint to review now instead of waiting out the iteration's wait, and accept
 * tests that failed before any change (and still fail) as known failures. The server decides
 * what is offered (`can`, `knownFailureOffer`) and checks again.
 */
export function PartialFixExits({
  task,
  status,
}: {
  readonly task: TaskView;
  /** The live status: a stale view must not offer what the task has moved past. */
  readonly status: TaskStatus;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(task.knownFailureOffer));
  const options = {
    onSuccess: (view: TaskView) => {
      setError(null);
      queryClient.setQueryData(trpc.tasks.get.queryKey({ taskId: task.id }), view);
    },
    onError: (failure: unknown) => setError(errorInfo(failure).message),
  };
  const sendNow = useMutation(trpc.tasks.sendToReview.mutationOptions(options));
  const accept = useMutation(trpc.tasks.acceptKnownFailures.mutationOptions(options));
  const busy = sendNow.isPending || accept.isPending;

  const waiting = status === 'awaiting_hypotheses';
  const canSend = task.can.sendToReview && waiting;
  const offer = task.knownFailureOffer;
  const canAccept =
    task.can.acceptKnownFailures &&
    offer.length > 0 &&
    (waiting || (status === 'awaiting_review' && task.reviewPartial));
  if (!canSend && !canAccept && task.reviewNowRequestedBy === null) return null;
  const picked = offer.filter((id) => chosen.has(id));

  return (
    <section className="partial-fix-exits" aria-labelledby="partial-fix-exits-title">
      <h2 id="partial-fix-exits-title">The fix so far</h2>
      {task.reviewNowRequestedBy !== null && waiting ? (
        <p role="status">
          {task.reviewNowRequestedBy} sent the newest checkpoint to review; it is being put up now.
        </p>
      ) : null}
      {canSend ? (
        <div className="exit">
          <p>
            The newest checkpoint fixed failing tests and broke none. The task waits up to{' '}
            {task.hypothesisWaitSecs} s per iteration for more hypotheses; it can go to review now,
            marked partial.
          </p>
          <button type="button" disabled={busy} onClick={() => sendNow.mutate({ taskId: task.id })}>
            {sendNow.isPending ? 'Sending…' : 'Send to review now'}
          </button>
        </div>
      ) : null}
      {canAccept ? (
        <fieldset className="exit known-failure-offer">
          <legend>
            {offer.length === 1
              ? 'This test failed before any change and still fails: treat it as a known failure?'
              : `These ${offer.length} tests failed before any change and still fail: treat them as known failures?`}
          </legend>
          <ul className="test-id-list">
            {offer.map((id) => (
              <li key={id}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.has(id)}
                    onChange={(event) => {
                      const next = new Set(chosen);
                      if (event.target.checked) next.add(id);
                      else next.delete(id);
                      setChosen(next);
                    }}
                  />{' '}
                  <TestId id={id} />
                </label>
              </li>
            ))}
          </ul>
          <button
            type="button"
            disabled={busy || picked.length === 0}
            onClick={() => accept.mutate({ taskId: task.id, ids: picked })}
          >
            {accept.isPending
              ? 'Accepting…'
              : `Accept ${picked.length === 1 ? 'it' : `these ${picked.length}`} as known failures`}
          </button>
        </fieldset>
      ) : null}
      {error === null ? null : (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
