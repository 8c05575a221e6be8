import type { ReactNode } from 'react';
import { formatBytes, formatDuration, formatTime, plural, shortSha } from '../format';
import type { TaskView } from '../trpc/router-types';
import { OutputTail } from './output-tail';
import { formatSpend } from './spend';
import type { IterationState, RunSummary, TimelineState } from './timeline-state';

/** What happened to the task, step by step, as the events arrive. */
export function Timeline({
  timeline,
  task,
  replaying,
}: {
  readonly timeline: TimelineState;
  readonly task: TaskView;
  readonly replaying: boolean;
}) {
  const { intake, workspace, baseline } = timeline;
  if (replaying) {
    return (
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <p>Loading {plural(task.lastEventId, 'event')}…</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <ol className="timeline">
        <Step title="Intake" state={intake.state}>
          {intake.location === null ? null : <p className="mono">{intake.location}</p>}
          {intake.state === 'running' && intake.percent !== null ? (
            <p>
              <label htmlFor="intake-progress">{intake.phase ?? 'Cloning'}</label>{' '}
              <progress id="intake-progress" max={100} value={intake.percent} /> {intake.percent}%
            </p>
          ) : null}
          {intake.state === 'running' && intake.entries > 0 ? (
            <p>
              {plural(intake.entries, 'entry', 'entries')} extracted ({formatBytes(intake.bytes)})
            </p>
          ) : null}
          {intake.state === 'completed' ? (
            <p>
              {plural(intake.files ?? 0, 'file')}, {formatBytes(intake.bytes)}
              {intake.commit === null ? null : <> at {shortSha(intake.commit)}</>}
            </p>
          ) : null}
          {intake.rejection === null ? null : (
            <p className="task-error">
              Refused ({intake.rejection.code}): {intake.rejection.message}
            </p>
          )}
        </Step>
        <Step title="Worktree" state={workspace === null ? 'waiting' : 'ready'}>
          {workspace === null ? null : (
            <p>
              <span className="mono">{workspace.worktreePath}</span> at{' '}
              <span className="mono">{shortSha(workspace.baselineCommit)}</span>, {workspace.mode}{' '}
              mode
              {workspace.fallbackReason === null ? null : ` (${workspace.fallbackReason})`}
            </p>
          )}
        </Step>
        <Step title="Baseline" state={baselineWord(baseline.state, baseline.run)}>
          {baseline.run === null ? null : <RunCounts run={baseline.run} />}
          {baseline.state === 'waiting' ? null : (
            <OutputTail
              label="Baseline output"
              text={baseline.run?.outputTail ?? baseline.liveOutput.join('\n')}
            />
          )}
        </Step>
        {timeline.iterations.map((iteration) => (
          <Step
            key={iteration.index}
            title={`Iteration ${iteration.index}`}
            state={iteration.state.replace('_', ' ')}
          >
            <IterationSummary iteration={iteration} />
          </Step>
        ))}
        {timeline.spend === null ? null : (
          <Step title="Fixer spend" state={plural(timeline.spend.decisions, 'decision')}>
            <p>{formatSpend({ ...timeline.spend, maxTokens: task.spend.maxTokens })}</p>
          </Step>
        )}
        {timeline.pending.length === 0 ? null : (
          <Step title="Queued hypotheses" state="waiting">
            <p>For the next iteration: {timeline.pending.map((p) => p.name).join(', ')}</p>
          </Step>
        )}
        {timeline.review === null ? null : (
          <Step title="Review" state="ready">
            <p>
              Diff <span className="mono">{shortSha(timeline.review.diffSha256)}</span>:{' '}
              {plural(timeline.review.flags.files, 'file')}, +{timeline.review.flags.additions} −
              {timeline.review.flags.deletions}
            </p>
          </Step>
        )}
        {timeline.notes.map((note) => (
          <Step key={note.seq} title={note.text} state={note.kind.replace('_', ' ')}>
            {note.details.length === 0 ? null : (
              <ul className="note-details">
                {note.details.map((line, i) => (
                  <li key={i}>{line}</li>
                ))}
              </ul>
            )}
            <p className="muted">
              <time dateTime={note.at}>{formatTime(note.at)}</time>
            </p>
          </Step>
        ))}
      </ol>
      {task.lastEventId === 0 ? <p className="muted">No events yet.</p> : null}
    </section>
  );
}

function Step({
  title,
  state,
  children,
}: {
  readonly title: string;
  readonly state: string;
  readonly children?: ReactNode;
}) {
  return (
    <li className={`step step-${state.replace(/\s+/g, '-')}`}>
      <h3>
        {title} <span className="step-state">{state}</span>
      </h3>
      {children}
    </li>
  );
}

function baselineWord(state: 'waiting' | 'running' | 'finished', run: RunSummary | null): string {
  if (state !== 'finished' || run === null) return state;
  if (run.timedOut) return 'timed out';
  if (!run.parsed) return run.green ? 'passed (unparsed)' : 'failed (unparsed)';
  return run.green ? 'passed' : 'failed';
}

function RunCounts({ run }: { readonly run: RunSummary }) {
  return (
    <p>
      {run.passed} passed, {run.failed} failed, {run.skipped} skipped · exit{' '}
      {run.exitCode ?? run.signal ?? '—'} · {formatDuration(run.durationMs)}
      {run.error === null ? null : <span className="task-error"> · {run.error}</span>}
    </p>
  );
}

function IterationSummary({ iteration }: { readonly iteration: IterationState }) {
  if (iteration.state === 'awaiting_hypotheses') {
    return (
      <p>
        Waiting for {plural(iteration.wanted ?? 0, 'hypothesis', 'hypotheses')}
        {iteration.deadline === null ? null : (
          <>
            {' '}
            until <time dateTime={iteration.deadline}>{formatTime(iteration.deadline)}</time>
          </>
        )}
        . Write one below, or let an agent submit them.
      </p>
    );
  }
  if (iteration.state === 'running') {
    const done = iteration.hypotheses.filter((row) => row.state === 'finished').length;
    return (
      <p>
        Running {plural(iteration.hypotheses.length, 'hypothesis', 'hypotheses')}: {done} finished.
      </p>
    );
  }
  if (iteration.state === 'finished') {
    return iteration.winner === null ? (
      <p>No winner: no hypothesis passed.</p>
    ) : (
      <p>
        Winner: <strong>{iteration.winner}</strong>
        {iteration.green === true ? ' (tests pass)' : null}
        {iteration.checkpointSha === null ? null : (
          <>
            , checkpoint <span className="mono">{shortSha(iteration.checkpointSha)}</span>
          </>
        )}
      </p>
    );
  }
  return <p>Started.</p>;
}
