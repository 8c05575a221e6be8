import { formatDuration } from '../format';
import { finalStatuses } from '@/server/engine/lifecycle';
import type { TaskView } from '../trpc/router-types';
import { OutputTail } from './output-tail';
import { TestChanges } from './test-changes';
import type { HypothesisRow, IterationState } from './timeline-state';

/** Statuses after which no hypothesis runs any more: the final ones, and an approval. */
const ended = (status: TaskView['status']): boolean =>
  finalStatuses.has(status) || status === 'approved';

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
          {iterations.map((iteration) => (
            <tbody key={iteration.index}>
              <tr className="group">
                <th scope="rowgroup" colSpan={columns.length}>
                  Iteration {iteration.index}
                  {iteration.winner === null ? null : ` · winner ${iteration.winner}`}
                </th>
              </tr>
              {iteration.hypotheses.map((row) => (
                <Row
                  key={row.name}
                  row={row}
                  winner={row.name === iteration.winner}
                  mode={modeOf(iteration.index, row.name)}
                />
              ))}
            </tbody>
          ))}
        </table>
      </div>
    </section>
  );
}

function Row({
  row,
  winner,
  mode,
}: {
  readonly row: HypothesisRow;
  readonly winner: boolean;
  readonly mode: string;
}) {
  const { result } = row;
  const verdict = verdictOf(row);
  return (
    <tr className={winner ? 'winner' : undefined}>
      <td>{row.rank ?? '—'}</td>
      <th scope="row">
        {row.name}
        {winner ? <span className="badge">winner</span> : null}
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
