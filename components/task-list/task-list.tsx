'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import Link from 'next/link';
import { describeSource, formatTime } from '../format';
import { StatusBadge } from '../status/status-badge';
import { useTRPC } from '../trpc/client';
import type { TaskPage } from '../trpc/router-types';
import { useTrailingThrottle } from '../use-throttled';
import { ConnectionState } from './connection-state';

/** Every task, newest first; refetched whenever any task has a new event. */
export function TaskList({ initialTasks }: { readonly initialTasks: TaskPage }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tasks = useQuery(trpc.tasks.list.queryOptions(undefined, { initialData: initialTasks }));
  const refresh = useTrailingThrottle(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.tasks.list.queryKey() });
  }, 500);
  // On (re)connect too: whatever happened while the stream was down is in the list now.
  const changes = useSubscription(
    trpc.tasks.changes.subscriptionOptions(undefined, { onStarted: refresh, onData: refresh }),
  );

  const list = tasks.data.tasks;
  return (
    <>
      <ConnectionState status={changes.status} error={changes.error?.message ?? null} />
      {list.length === 0 ? (
        <p>No tasks yet. Create one above.</p>
      ) : (
        <div className="table-scroll">
          <table className="task-list">
            <caption className="visually-hidden">Tasks, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Status</th>
                <th scope="col">Owner</th>
                <th scope="col">Source</th>
                <th scope="col">Created</th>
                <th scope="col">Last activity</th>
              </tr>
            </thead>
            <tbody>
              {list.map((task) => (
                <tr key={task.id}>
                  <th scope="row">
                    <Link href={`/coding/${task.id}`} className="task-title">
                      {task.title}
                    </Link>
                    <span className="task-id mono">{task.id}</span>
                  </th>
                  <td>
                    <StatusBadge status={task.status} />
                  </td>
                  <td>{task.owner ?? '—'}</td>
                  <td className="source">{describeSource(task.source)}</td>
                  <td>
                    <time dateTime={task.createdAt}>{formatTime(task.createdAt)}</time>
                  </td>
                  <td>
                    <time dateTime={task.updatedAt}>{formatTime(task.updatedAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
