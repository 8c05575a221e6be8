'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { useTRPC } from '../trpc/client';

/**
 * The approved batch pushed to a branch of a remote the administrators configured (the same
 * remotes as a task's push), one commit per member. The server's refusals (a branch someone
 * else moved, the credential) are shown in its words.
 */
export function BatchPushForm({ batchId }: { readonly batchId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const remotes = useQuery(trpc.tasks.remotes.queryOptions());
  const [remote, setRemote] = useState('');
  const [branch, setBranch] = useState('');
  const push = useMutation(
    trpc.batches.push.mutationOptions({
      // The batch lists its pushes: read it again to show this one there too.
      onSuccess: () =>
        void queryClient.invalidateQueries(trpc.batches.get.queryFilter({ id: batchId })),
    }),
  );

  const list = remotes.data ?? [];
  if (remotes.isPending) return null;
  if (list.length === 0) {
    return (
      <p className="hint">
        No remote is configured to push to (an administrator adds one with{' '}
        <code>shadowbox remote add</code>).
      </p>
    );
  }
  const chosen = list.find((r) => r.name === remote) ?? list[0];
  const outcome = push.data;

  return (
    <form
      className="push-form"
      aria-label="Push the approved batch"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen === undefined) return;
        push.mutate({
          id: batchId,
          remote: chosen.name,
          ...(branch.trim() === '' ? {} : { branch: branch.trim() }),
        });
      }}
    >
      <label htmlFor={`${id}-remote`}>Remote</label>
      <select
        id={`${id}-remote`}
        value={chosen?.name ?? ''}
        onChange={(e) => setRemote(e.target.value)}
      >
        {list.map((r) => (
          <option key={r.name} value={r.name}>
            {r.name} ({r.url})
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-branch`}>Branch</label>
      <input
        id={`${id}-branch`}
        value={branch}
        placeholder={`shadowbox/batch-${batchId}`}
        onChange={(e) => setBranch(e.target.value)}
      />
      <button type="submit" disabled={push.isPending}>
        {push.isPending ? 'Pushing…' : 'Push'}
      </button>
      {push.isError ? (
        <p className="form-error" role="alert">
          {errorInfo(push.error).message}
        </p>
      ) : null}
      {outcome === undefined ? null : (
        <p className="outcome" role="status">
          Pushed <span className="mono">{outcome.commit.slice(0, 12)}</span> to{' '}
          <span className="mono">{outcome.branch}</span> on {outcome.remote}.
        </p>
      )}
    </form>
  );
}
