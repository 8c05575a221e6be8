import { formatBytes, formatDuration, formatTime, plural, shortSha } from '../format';
import { finalStatuses } from '@/server/engine/lifecycle';
import type { TaskView } from '../trpc/router-types';
import { BaselineEvidence } from './baseline-evidence';
import { IterationSummary } from './iteration-summary';
import { OutputTail } from './output-tail';
import { SetupStep } from './setup-step';
import { formatSpend } from './spend';
import { Step } from './timeline-step';
import type { RunSummary, TimelineState } from './timeline-state';

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
              {/* Only administrators are shown the server's path (others get "<worktree>"). */}
              {workspace.worktreePath === '<worktree>' ? (
                'Baseline'
              ) : (
                <span className="mono">{workspace.worktreePath}</span>
              )}{' '}
              at <span className="mono">{shortSha(workspace.baselineCommit)}</span>,{' '}
              {workspace.mode} mode
              {workspace.fallbackReason === null ? null : ` (${workspace.fallbackReason})`}
            </p>
          )}
        </Step>
        <SetupStep setup={timeline.setup} record={task.setup} />
        <Step
          title="Baseline"
          state={
            // A task that ended before its baseline (a failed setup) never runs it.
            baseline.state === 'waiting' && finalStatuses.has(task.status)
              ? 'not run'
              : baselineWord(baseline.state, baseline.run, task.baseline?.green)
          }
        >
          {baseline.run === null ? null : (
            <>
              <RunCounts run={baseline.run} />
              <BaselineEvidence
                run={baseline.run}
                view={task.baseline}
                knownFailures={task.knownFailures}
              />
            </>
          )}
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
            title={
              iteration.review === null
                ? `Iteration ${iteration.index}`
                : `Iteration ${iteration.index} (review round ${iteration.review.round})`
            }
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
          <Step title="Review" state={timeline.review.partial === true ? 'partial' : 'ready'}>
            <p>
              Diff <span className="mono">{shortSha(timeline.review.diffSha256)}</span>:{' '}
              {plural(timeline.review.flags.files, 'file')}, +{timeline.review.flags.additions} −
              {timeline.review.flags.deletions}
              {timeline.review.partial === true
                ? ` — a partial fix: ${plural(timeline.review.stillFailing?.length ?? 0, 'test')} still failing`
                : null}
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

function baselineWord(
  state: 'waiting' | 'running' | 'finished',
  run: RunSummary | null,
  green: boolean | undefined,
): string {
  if (state !== 'finished' || run === null) return state;
  if (run.timedOut) return 'timed out';
  if (run.buildFailed) return 'build failed';
  const passed = green ?? run.green;
  if (!run.parsed) return passed ? 'passed (unparsed)' : 'failed (unparsed)';
  return passed ? 'passed' : 'failed';
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
