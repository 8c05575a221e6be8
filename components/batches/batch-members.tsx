'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { formatTime, shortSha } from '../format';
import { TestIds } from '../task-page/test-ids';
import { useTRPC } from '../trpc/client';
import type { BatchView } from './batch-types';
import { memberLabel } from './member-labels';

/**
 * The members in the order they are applied, with what each brought (its approved commit and the
 * tests it fixed on its own). Dropping one keeps it listed; the rest is merged and tested again.
 */
export function BatchMembers({ batch }: { readonly batch: BatchView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const drop = useMutation(
    trpc.batches.drop.mutationOptions({
      onSuccess: (view) => {
        setError(null);
        queryClient.setQueryData(trpc.batches.get.queryKey({ id: batch.id }), view);
        void queryClient.invalidateQueries(trpc.batches.diff.queryFilter({ id: batch.id }));
        void queryClient.invalidateQueries(trpc.batches.list.queryFilter());
      },
      onError: (failure) => setError(errorInfo(failure).message),
    }),
  );
  const members = [...batch.members].sort((a, b) => a.position - b.position);

  return (
    <section aria-labelledby="batch-members-heading">
      <h2 id="batch-members-heading">Members</h2>
      <div className="table-scroll">
        <table className="task-list">
          <caption className="visually-hidden">Members, in the order they are applied</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Task</th>
              <th scope="col">Head commit</th>
              <th scope="col">Tests it fixed</th>
              <th scope="col">Dropped</th>
              {batch.can.drop ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.taskId} className={member.dropped === null ? undefined : 'muted'}>
                <td>{member.position + 1}</td>
                <th scope="row">
                  <Link href={`/coding/${member.taskId}`}>{member.title || member.taskId}</Link>
                </th>
                <td>
                  <abbr className="mono" title={member.headCommit}>
                    {shortSha(member.headCommit)}
                  </abbr>
                </td>
                <td>
                  <TestIds label="Fixed" ids={member.fixed} none />
                </td>
                <td>
                  {member.dropped === null ? (
                    '—'
                  ) : (
                    <>
                      by {member.dropped.by},{' '}
                      <time dateTime={member.dropped.at}>{formatTime(member.dropped.at)}</time>
                    </>
                  )}
                </td>
                {batch.can.drop ? (
                  <td>
                    {member.dropped === null ? (
                      <button
                        type="button"
                        disabled={drop.isPending}
                        onClick={() => drop.mutate({ id: batch.id, task: member.taskId })}
                      >
                        Drop<span className="visually-hidden"> {memberLabel(member)}</span>
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {error === null ? null : (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
