'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { useTRPC } from '../trpc/client';
import { NoRemotes, PushTargetFields } from '../review/push-target';

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
  if (list.length === 0) return <NoRemotes />;
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
      <PushTargetFields
        id={id}
        remotes={list}
        remote={chosen?.name ?? ''}
        onRemote={setRemote}
        branch={branch}
        onBranch={setBranch}
        defaultBranch={`shadowbox/batch-${batchId}`}
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
