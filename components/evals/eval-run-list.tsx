'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { formatTime } from '../format';
import { useTRPC } from '../trpc/client';
import { isGoing, pollMs, progressLine, stateLabel } from './eval-format';
import type { EvalRunList as RunList } from './eval-types';

/** The server's eval runs, newest first; read again every 2 s while one goes. */
export function EvalRunList({ initialList }: { readonly initialList: RunList }) {
  const trpc = useTRPC();
  const list = useQuery(
    trpc.evals.list.queryOptions(undefined, {
      initialData: initialList,
      refetchInterval: (query) => (isGoing(query.state.data?.runs ?? []) ? pollMs : false),
    }),
  );
  const runs = list.data.runs;
  if (runs.length === 0) {
    return <p className="list-empty">No eval run on this server yet. Start one below.</p>;
  }
  return (
    <div className="table-scroll">
      {list.error === null ? null : (
        <p className="form-error" role="alert">
          The list could not be read again: {list.error.message}
        </p>
      )}
      <table className="task-list">
        <caption className="visually-hidden">Eval runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Set</th>
            <th scope="col">State</th>
            <th scope="col">Progress</th>
            <th scope="col">Model</th>
            <th scope="col">k</th>
            <th scope="col">Started by</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.runId} data-run-id={run.runId}>
              <th scope="row">
                <Link href={`/coding/evals/${run.runId}`} className="task-title">
                  {run.set}
                </Link>
                <span className="task-id mono">{run.runId}</span>
              </th>
              <td>
                <span className="eval-state">{stateLabel[run.state]}</span>
                {run.error === null ? null : <span className="task-error"> {run.error}</span>}
              </td>
              <td>
                <progress
                  max={run.attempts}
                  value={run.attemptsDone}
                  aria-label={`attempts done of ${run.runId}`}
                />{' '}
                {progressLine(run)}
              </td>
              <td className="mono">{run.model}</td>
              <td>{run.k}</td>
              <td>{run.owner}</td>
              <td>
                <time dateTime={run.startedAt}>{formatTime(run.startedAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
