'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { formatTime } from '../format';
import { useTRPC } from '../trpc/client';
import type { ReviewHistoryItem } from '../trpc/router-types';
import { shortHash } from './decision';
import { dismissableRequests, type Viewer } from './review-state';

/**
 * A request for changes stands until its reviewer approves or sets it aside with a reason (an
 * admin may set anyone's aside). Shown only to those who may, while one stands.
 */
export function DismissRequests({
  taskId,
  viewer,
}: {
  readonly taskId: string;
  readonly viewer: Viewer | null;
}) {
  const trpc = useTRPC();
  const history = useQuery(trpc.reviews.history.queryOptions({ taskId }));
  const requests = dismissableRequests(history.data ?? [], viewer);
  if (requests.length === 0) return null;
  return (
    <ul className="dismiss-requests">
      {requests.map((request) => (
        <DismissRequest key={request.id} taskId={taskId} request={request} viewer={viewer} />
      ))}
    </ul>
  );
}

function DismissRequest({
  taskId,
  request,
  viewer,
}: {
  readonly taskId: string;
  readonly request: ReviewHistoryItem;
  readonly viewer: Viewer | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const dismiss = useMutation(
    trpc.reviews.dismiss.mutationOptions({
      onSuccess: (view) => {
        queryClient.setQueryData(trpc.tasks.get.queryKey({ taskId }), view);
        void queryClient.invalidateQueries({ queryKey: trpc.reviews.pathKey() });
        setOpen(false);
      },
    }),
  );
  const whose = request.by === viewer?.username ? 'Your' : `${request.by}'s`;
  return (
    <li>
      {whose} request for changes ({formatTime(request.at)}, diff{' '}
      <abbr className="mono" title={request.sha256}>
        {shortHash(request.sha256)}
      </abbr>
      ) stands.{' '}
      {open ? (
        <form
          className="dismiss-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason.trim() !== '') {
              dismiss.mutate({ taskId, reviewId: request.id, reason: reason.trim() });
            }
          }}
        >
          <label htmlFor={id}>Why it no longer stands</label>
          <textarea
            id={id}
            rows={2}
            maxLength={2000}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
          <div className="comment-form-actions">
            <button type="submit" disabled={dismiss.isPending || reason.trim() === ''}>
              Dismiss the request
            </button>
            <button type="button" onClick={() => setOpen(false)} disabled={dismiss.isPending}>
              Cancel
            </button>
          </div>
          {dismiss.error === null ? null : (
            <p className="form-error" role="alert">
              {errorInfo(dismiss.error).message}
            </p>
          )}
        </form>
      ) : (
        <button type="button" onClick={() => setOpen(true)}>
          Dismiss…
        </button>
      )}
    </li>
  );
}
