import { formatDuration } from '../format';
import type { TaskView } from '../trpc/router-types';
import { OutputTail } from './output-tail';
import type { HypothesisRow, IterationState } from './timeline-state';

const columns = [
  'Rank',
  'Name',
  'Origin',
  'Result',
  'Passed',
  'Failed',
  'Skipped',
  'Duration',
  'Changed lines',
  'Mode',
  'Output',
];

/**
 * Every iteration's hypotheses, best first, in one table named "Hypotheses" (one row group per
 * iteration). Live rows come from the event stream; the run mode from the task's stored view.
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
                  {replaying ? 'Loading…' : 'No hypothesis has run yet.'}
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
        {winner ? <span className="badge"> winner</span> : null}
      </th>
      <td>{row.origin}</td>
      <td>
        <span className={`verdict verdict-${verdict.split(' ')[0] ?? ''}`}>{verdict}</span>
      </td>
      <td>{result?.passed ?? '—'}</td>
      <td>{result?.failed ?? '—'}</td>
      <td>{result?.skipped ?? '—'}</td>
      <td>{formatDuration(result?.durationMs ?? null)}</td>
      <td>{result?.changedLines ?? '—'}</td>
      <td>{mode}</td>
      <td>
        <OutputTail
          label={`Output of ${row.name}`}
          text={result?.outputTail ?? row.liveOutput.join('\n')}
        />
        {result?.error == null ? null : <p className="task-error">{result.error}</p>}
      </td>
    </tr>
  );
}

function verdictOf(row: HypothesisRow): string {
  const { result } = row;
  if (row.state !== 'finished' || result === null) return row.state;
  if (result.timedOut) return 'timed out';
  if (result.error !== null) return 'error';
  const passed = result.exitCode === 0 && result.failed === 0;
  return `${passed ? 'passed' : 'failed'}${result.parsed ? '' : ' (unparsed)'}`;
}
