'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { errorInfo } from '../errors/error-info';
import { formatDuration } from '../format';
import { acceptsWork } from '@/server/engine/lifecycle';
import { useTRPC } from '../trpc/client';
import type { TaskView } from '../trpc/router-types';
import { OutputTail } from './output-tail';
import { TestChanges } from './test-changes';
import type { HypothesisRow, IterationState } from './timeline-state';

/** Statuses after which no hypothesis runs any more: the final ones, and an approval. */
const ended = (status: TaskView['status']): boolean => !acceptsWork(status);

const columns = [
  'Rank',
  'Name',
  'Origin',
  'Result',
  'Passed',
  'Failed',
  'Skipped',
  'Tests',
  'Duration',
  'Changed lines',
  'Mode',
  'Output',
];

type IterationView = TaskView['iterations'][number];
type Promotion = NonNullable<IterationView['promotion']>;

/**
 * The names a reviewer may promote now: the passing runners-up of the newest finished iteration
 * of a task awaiting review (the server checks again: promote-rules.ts).
 */
export function promotable(
  task: TaskView,
): { readonly index: number; readonly names: ReadonlySet<string> } | null {
  if (!task.can.review || task.status !== 'awaiting_review') return null;
  const newest = task.iterations.filter((it) => it.status === 'done').at(-1);
  if (newest === undefined) return null;
  const names = newest.hypotheses
    .filter(
      (h) =>
        h.name !== newest.winner &&
        h.verdict === 'passed' &&
        h.disqualified === null &&
        h.error === null,
    )
    .map((h) => h.name);
  return { index: newest.index, names: new Set(names) };
}

/**
 * Every iteration's hypotheses, best first, in one table named "Hypotheses" (one row group per
 * iteration). Live rows come from the event stream; the run mode from the task's stored view.
 * "Tests" is what each run did against the checkpoint it built on, test by test.
 */
export function HypothesesTable({
  iterations,
  task,
  defaultMode,
  replaying,
}: {
  readonly iterations: readonly IterationState[];
  readonly task: TaskView;
  readonly defaultMode: string | null;
  readonly replaying: boolean;
}) {
  const eligible = promotable(task);
  // A promotion changes the winner after the stream's `iteration.finished`: the view says so.
  const promotionOf = (index: number): { winner: string | null; promotion: Promotion } | null => {
    const stored = task.iterations.find((it) => it.index === index);
    return stored?.promotion == null
      ? null
      : { winner: stored.winner, promotion: stored.promotion };
  };
  const modeOf = (index: number, name: string): string =>
    task.iterations.find((it) => it.index === index)?.hypotheses.find((h) => h.name === name)
      ?.mode ??
    defaultMode ??
    '—';
  return (
    <section aria-labelledby="hypotheses-heading">
      <h2 id="hypotheses-heading">Hypotheses</h2>
      <div className="table-scroll">
        <table className="hypotheses">
          <caption className="visually-hidden">Hypotheses</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          {iterations.length === 0 ? (
            <tbody>
              <tr>
                <td colSpan={columns.length}>
                  {replaying
                    ? 'Loading…'
                    : ended(task.status)
                      ? 'No hypothesis ran.'
                      : 'No hypothesis has run yet.'}
                </td>
              </tr>
            </tbody>
          ) : null}
          {iterations.map((iteration) => {
            const promoted = promotionOf(iteration.index);
            const winner = promoted?.winner ?? iteration.winner;
            return (
              <tbody key={iteration.index}>
                <tr className="group">
                  <th scope="rowgroup" colSpan={columns.length}>
                    Iteration {iteration.index}
                    {winner === null ? null : ` · winner ${winner}`}
                    {promoted === null
                      ? null
                      : ` (promoted over ${promoted.promotion.passedOver} by ${promoted.promotion.by})`}
                  </th>
                </tr>
                {iteration.hypotheses.map((row) => (
                  <Row
                    key={row.name}
                    row={row}
                    winner={row.name === winner}
                    mode={modeOf(iteration.index, row.name)}
                    promotion={promoted?.promotion ?? null}
                    promote={
                      eligible !== null &&
                      eligible.index === iteration.index &&
                      eligible.names.has(row.name) ? (
                        <PromoteForm taskId={task.id} name={row.name} />
                      ) : null
                    }
                  />
                ))}
              </tbody>
            );
          })}
        </table>
      </div>
    </section>
  );
}

function Row({
  row,
  winner,
  mode,
  promotion,
  promote,
}: {
  readonly row: HypothesisRow;
  readonly winner: boolean;
  readonly mode: string;
  /** The iteration's promotion, if a reviewer made one. */
  readonly promotion: Promotion | null;
  /** The promote control, on a row a reviewer may promote now. */
  readonly promote: ReactNode;
}) {
  const { result } = row;
  const verdict = verdictOf(row);
  return (
    <tr className={winner ? 'winner' : undefined}>
      <td>{row.rank ?? '—'}</td>
      <th scope="row">
        {row.name}
        {winner ? <span className="badge">winner</span> : null}
        {winner && promotion !== null ? <span className="badge promoted">promoted</span> : null}
        {winner && promotion !== null ? (
          <p className="promotion-note">
            Promoted by {promotion.by}: {promotion.reason}
          </p>
        ) : null}
        {promotion?.passedOver === row.name ? (
          <p className="passed-over">passed over: {promotion.reason}</p>
        ) : null}
        {promote}
        {result?.sameTreeAs === undefined ? null : (
          <p className="same-tree">same tree as {result.sameTreeAs}: ran once</p>
        )}
      </th>
      <td>{row.origin}</td>
      <td>
        <span className={`verdict verdict-${verdict.tone}`}>{verdict.word}</span>
        {result?.disqualified == null || result.error !== null ? null : (
          <p className="disqualified">Cannot win: {result.disqualified}</p>
        )}
        {result?.readAs === undefined ? null : (
          <p className="read-as muted">Results read {result.readAs}</p>
        )}
      </td>
      <td>{result?.passed ?? '—'}</td>
      <td>{result?.failed ?? '—'}</td>
      <td>{result?.skipped ?? '—'}</td>
      <td>{result === null ? '—' : <TestChanges tests={result.tests} />}</td>
      <td>{formatDuration(result?.durationMs ?? null)}</td>
      <td>{result?.changedLines ?? '—'}</td>
      <td>{mode}</td>
      <td>
        <OutputTail
          label={
            <>
              Output<span className="visually-hidden"> of {row.name}</span>
            </>
          }
          text={result?.outputTail ?? row.liveOutput.join('\n')}
        />
        {result?.error == null ? null : <p className="task-error">{result.error}</p>}
      </td>
    </tr>
  );
}

/**
 * "Promote", then a small form: the reason (kept and audited) and "Promote for review". The
 * server's refusal (a disqualified run, a task that moved on) is shown as it words it.
 */
function PromoteForm({ taskId, name }: { readonly taskId: string; readonly name: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const promote = useMutation(
    trpc.tasks.promote.mutationOptions({
      onSuccess: (view: TaskView) => {
        setError(null);
        setOpen(false);
        setReason('');
        queryClient.setQueryData(trpc.tasks.get.queryKey({ taskId }), view);
      },
      onError: (failure: unknown) => setError(errorInfo(failure).message),
    }),
  );
  if (!open) {
    return (
      <button type="button" className="promote-open" onClick={() => setOpen(true)}>
        Promote<span className="visually-hidden"> {name}</span>
      </button>
    );
  }
  return (
    <form
      className="promote-form"
      aria-label={`Promote ${name} for review`}
      onSubmit={(event) => {
        event.preventDefault();
        promote.mutate({ taskId, hypothesis: name, reason });
      }}
    >
      <label htmlFor={`${id}-reason`}>Reason</label>
      <textarea
        id={`${id}-reason`}
        value={reason}
        maxLength={2000}
        required
        rows={3}
        placeholder={`Why ${name} should be reviewed instead of the ranked winner`}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="promote-actions">
        <button type="submit" disabled={promote.isPending || reason.trim() === ''}>
          {promote.isPending ? 'Promoting…' : 'Promote for review'}
        </button>
        <button type="button" onClick={() => setOpen(false)} disabled={promote.isPending}>
          Cancel
        </button>
      </div>
      {error === null ? null : (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** The verdict word, and the tone its sign takes (globals.css `.verdict-*`). */
function verdictOf(row: HypothesisRow): { readonly word: string; readonly tone: string } {
  const { result } = row;
  if (row.state !== 'finished' || result === null) return { word: row.state, tone: row.state };
  if (result.timedOut) return { word: 'timed out', tone: 'failed' };
  if (result.error !== null) return { word: 'error', tone: 'error' };
  if (result.buildFailed) return { word: 'build failed', tone: 'failed' };
  // Judged against its reference, a run passes when it cannot be disqualified (it may leave
  // baseline failures failing); without one it must pass outright.
  const passed =
    result.tests === null
      ? result.exitCode === 0 && result.failed === 0
      : result.disqualified === null;
  // A run that failed no test but cannot win (it edited or lost tests) did not fail: it is out.
  const failedWord =
    result.failed === 0 && result.disqualified !== null ? 'disqualified' : 'failed';
  const word = `${passed ? 'passed' : failedWord}${result.parsed ? '' : ' (unparsed)'}`;
  return { word, tone: passed ? 'passed' : 'failed' };
}
