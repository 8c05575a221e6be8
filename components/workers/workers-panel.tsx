'use client';

import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import Link from 'next/link';
import { formatTime } from '../format';
import { useTRPC } from '../trpc/client';
import type { AppRouter, TaskPage, TaskSummary } from '../trpc/router-types';

type WorkerView = inferRouterOutputs<AppRouter>['system']['workers'][number];

const stateLabels: Record<WorkerView['state'], string> = {
  live: 'live',
  late: 'heartbeat late',
  stopped: 'stopped',
};

/**
 * The worker processes (PostgreSQL deployments) with their load and the tasks placed on each; a
 * task's worktree lives on its worker's disk. Hidden with SQLite, where this one process runs
 * every task. The task list is the one the task table keeps fresh (same query).
 */
export function WorkersPanel({
  initialWorkers,
  initialTasks,
}: {
  readonly initialWorkers: readonly WorkerView[];
  /** The task list's first page, unfiltered. */
  readonly initialTasks: TaskPage;
}) {
  const trpc = useTRPC();
  const workers = useQuery(
    trpc.system.workers.queryOptions(undefined, {
      initialData: initialWorkers,
      refetchInterval: 5000,
    }),
  ).data;
  const tasks = useQuery(trpc.tasks.list.queryOptions(undefined, { initialData: initialTasks }))
    .data.tasks;
  if (workers.length === 0) return null;
  const tasksOf = (workerId: string) => tasks.filter((task) => task.workerId === workerId);
  return (
    <section aria-labelledby="workers-heading" className="card">
      <h2 id="workers-heading">Workers</h2>
      <div className="table-scroll">
        <table className="task-list">
          <caption className="visually-hidden">Worker processes and the tasks they hold</caption>
          <thead>
            <tr>
              <th scope="col">Worker</th>
              <th scope="col">State</th>
              <th scope="col">Steps running</th>
              <th scope="col">Last heartbeat</th>
              <th scope="col">Tasks</th>
            </tr>
          </thead>
          <tbody>
            {workers.map((worker) => (
              <tr key={worker.id}>
                <td>
                  <code>{worker.id}</code>
                  {/* Host and pid are the admin's only; others get an opaque id. */}
                  {worker.host === null ? null : (
                    <div className="muted">
                      {worker.host}, pid {worker.pid}
                    </div>
                  )}
                </td>
                <td>{stateLabels[worker.state]}</td>
                <td>
                  {worker.running} of {worker.capacity}
                </td>
                <td>{formatTime(worker.stoppedAt ?? worker.heartbeatAt)}</td>
                <td>
                  <WorkerTasks tasks={tasksOf(worker.id)} active={worker.tasks} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function WorkerTasks({
  tasks,
  active,
}: {
  readonly tasks: readonly TaskSummary[];
  readonly active: number;
}) {
  if (tasks.length === 0) return <span className="muted">{active} active</span>;
  return (
    <ul aria-label="Tasks on this worker">
      {tasks.map((task) => (
        <li key={task.id}>
          <Link href={`/coding/${task.id}`}>{task.id}</Link> <span>({task.status})</span>
        </li>
      ))}
    </ul>
  );
}
