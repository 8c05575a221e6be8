'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { formatDuration, formatTime } from '../format';
import { useTRPC } from '../trpc/client';
import {
  dollars,
  isGoing,
  pollMs,
  progressLine,
  reportFrameHeight,
  stateLabel,
} from './eval-format';
import type { EvalRunDetail as Detail } from './eval-types';

/**
 * One run: its progress (read again every 2 s while it goes), the report `shadowbox eval report
 * --html` writes (table with Wilson intervals, pass@k against cost), and every attempt.
 *
 * The report is a whole page whose strings come from a set anyone may have written. The server
 * escapes them; the frame is the second wall: `sandbox=""` runs no script, submits no form and
 * gives the page an origin of its own, and the page's own CSP allows no request at all.
 */
export function EvalRunDetail({ initialDetail }: { readonly initialDetail: Detail }) {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.evals.get.queryOptions(
      { runId: initialDetail.progress.runId },
      {
        initialData: initialDetail,
        refetchInterval: (q) =>
          isGoing(q.state.data === undefined ? [] : [q.state.data.progress]) ? pollMs : false,
      },
    ),
  );
  const detail = query.data;
  const { progress } = detail;
  return (
    <>
      <h1>
        Eval run <span className="mono">{progress.set}</span>
      </h1>
      <dl className="facts">
        <dt>State</dt>
        <dd>
          <span className="eval-state">{stateLabel[progress.state]}</span>
          {progress.error === null ? null : <span className="task-error"> {progress.error}</span>}
        </dd>
        <dt>Progress</dt>
        <dd>
          <progress
            max={progress.attempts}
            value={progress.attemptsDone}
            aria-label="attempts done"
          />{' '}
          {progressLine(progress)}
        </dd>
        <dt>Model</dt>
        <dd className="mono">{progress.model}</dd>
        <dt>Settings</dt>
        <dd>
          k = {progress.k}, {progress.parallel} in parallel
        </dd>
        <dt>Started</dt>
        <dd>
          <time dateTime={progress.startedAt}>{formatTime(progress.startedAt)}</time> by{' '}
          {progress.owner}
        </dd>
        <dt>Run id</dt>
        <dd className="mono">{progress.runId}</dd>
      </dl>
      {query.error === null ? null : (
        <p className="form-error" role="alert">
          The run could not be read again: {query.error.message}
        </p>
      )}
      <section aria-labelledby="eval-report-heading">
        <h2 id="eval-report-heading">Report</h2>
        <iframe
          title="Eval report"
          className="eval-report"
          sandbox=""
          srcDoc={detail.reportHtml}
          style={{ width: '100%', height: reportFrameHeight(detail), border: 0 }}
        />
      </section>
      <section aria-labelledby="eval-attempts-heading">
        <h2 id="eval-attempts-heading">Attempts</h2>
        <div className="table-scroll">
          <table className="task-list">
            <thead>
              <tr>
                <th scope="col">Instance</th>
                <th scope="col">#</th>
                <th scope="col">Result</th>
                <th scope="col">Task</th>
                <th scope="col">Tokens</th>
                <th scope="col">Cost</th>
                <th scope="col">Time</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {detail.instances.flatMap((instance) =>
                instance.attempts.map((a) => (
                  <tr key={`${instance.instance_id}:${a.attempt}`}>
                    <th scope="row" className="mono">
                      {instance.instance_id}
                    </th>
                    <td>{a.attempt + 1}</td>
                    <td>
                      {a.state === 'running' ? 'running' : a.resolved ? 'resolved' : 'not resolved'}
                    </td>
                    <td>
                      {a.taskId === null ? (
                        '—'
                      ) : (
                        <Link href={`/coding/${encodeURIComponent(a.taskId)}`}>
                          {a.taskId.slice(0, 8)}
                        </Link>
                      )}
                    </td>
                    <td>{a.tokens}</td>
                    <td>{dollars(a.costUsd)}</td>
                    <td>{a.state === 'running' ? '—' : formatDuration(a.durationMs)}</td>
                    <td className="why">{a.why}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
