'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TRPCSubscriptionStatus } from '@trpc/tanstack-react-query';
import { useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { describeSource, formatArgv, formatRunLimits, formatTime } from '../format';
import { ShortId } from '../short-id';
import { StatusBadge } from '../status/status-badge';
import { ConnectionState } from '../task-list/connection-state';
import { useTRPC } from '../trpc/client';
import type { TaskStatus, TaskView } from '../trpc/router-types';
import { fixerLabel, formatSpend, showsSpend, type Spend } from './spend';
import type { TaskActions } from './task-actions';
import { TaskProblem } from './task-problem';

/** The task's identity, its status (live) and what can be done to it as a whole. */
export function TaskHeader({
  task,
  status,
  spend,
  connection,
  connectionError,
  actions,
}: {
  readonly task: TaskView;
  readonly status: TaskStatus;
  /** The newest spend (the stream's totals may be ahead of the stored view). */
  readonly spend: Spend;
  readonly connection: TRPCSubscriptionStatus;
  readonly connectionError: string | null;
  /** Which of Cancel and Roll back this person may use, and whether they work now. */
  readonly actions: Pick<TaskActions, 'cancel' | 'rollback'>;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const options = {
    onSuccess: (view: TaskView) => {
      setError(null);
      queryClient.setQueryData(trpc.tasks.get.queryKey({ taskId: task.id }), view);
    },
    onError: (failure: unknown) => setError(errorInfo(failure).message),
  };
  const cancel = useMutation(trpc.tasks.cancel.mutationOptions(options));
  const rollback = useMutation(trpc.tasks.rollback.mutationOptions(options));
  const busy = cancel.isPending || rollback.isPending;

  return (
    <header className="task-header">
      <h1>{task.title}</h1>
      <p className="task-status">
        <StatusBadge status={status} role="status" aria-label="Task status" />{' '}
        <span className="task-byline">
          {task.owner ?? 'nobody'} created it{' '}
          <time dateTime={task.createdAt}>{formatTime(task.createdAt)}</time> from{' '}
          {describeSource(task.source)} · task <ShortId id={task.id} what="task id" />
        </span>
      </p>
      <ConnectionState status={connection} error={connectionError} />
      <TaskProblem problem={task.problem} issueUrl={task.issueUrl} />
      {/* What the task runs and with what budget: looked up now and then, so folded. */}
      <details className="task-facts">
        <summary>Commands, budget and limits</summary>
        <dl className="facts">
          <dt>Owner</dt>
          <dd>{task.owner ?? 'nobody (made before accounts)'}</dd>
          {task.team === null ? null : (
            <>
              <dt>Team</dt>
              <dd>{task.team}</dd>
            </>
          )}
          <dt>Source</dt>
          <dd>{describeSource(task.source)}</dd>
          <dt>Test command</dt>
          <dd className="mono">{formatArgv(task.testCommand)}</dd>
          <dt>Setup</dt>
          <dd className={task.setupCommands?.length ? 'mono' : undefined}>
            {task.setupCommands === null
              ? 'detected from the tree'
              : task.setupCommands.length === 0
                ? 'none'
                : task.setupCommands.map(formatArgv).join('; ')}
          </dd>
          {task.buildCommand === null ? null : (
            <>
              <dt>Build command</dt>
              <dd className="mono">{formatArgv(task.buildCommand)}</dd>
            </>
          )}
          {task.knownFailures.length === 0 ? null : (
            <>
              <dt>Known failures</dt>
              <dd className="mono">{task.knownFailures.join(', ')}</dd>
            </>
          )}
          <dt>Budget</dt>
          <dd>
            up to {task.maxIterations} iterations of {task.hypothesesPerIteration} hypotheses, each
            waiting up to {formatWait(task.hypothesisWaitSecs)} for them
          </dd>
          <dt>Fixer</dt>
          <dd>{fixerLabel(task.fixer)}</dd>
          {showsSpend({ fixer: task.fixer, spend }) ? (
            <>
              <dt>Spend</dt>
              <dd>{formatSpend(spend)}</dd>
            </>
          ) : null}
          <dt>Test edits</dt>
          <dd>
            {task.allowTestEdits
              ? 'allowed'
              : 'not allowed (a hypothesis that edits tests ranks last)'}
          </dd>
          <dt>Caps per run</dt>
          <dd>{formatRunLimits(task.limits)}</dd>
          <dt>Created</dt>
          <dd>
            <time dateTime={task.createdAt}>{formatTime(task.createdAt)}</time>
          </dd>
        </dl>
      </details>
      {actions.cancel.shown || actions.rollback.shown ? (
        <div className="actions">
          {actions.cancel.shown ? (
            <button
              type="button"
              disabled={!actions.cancel.enabled || busy}
              onClick={() => cancel.mutate({ taskId: task.id })}
            >
              Cancel
            </button>
          ) : null}
          {actions.rollback.shown ? (
            <button
              type="button"
              disabled={!actions.rollback.enabled || busy}
              onClick={() => rollback.mutate({ taskId: task.id })}
            >
              Roll back
            </button>
          ) : null}
          <span className="hint">
            Cancel stops a running task; Roll back also gives up a fix under review (the worktree
            returns to the baseline).
          </span>
        </div>
      ) : null}
      {error === null ? null : (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {task.error === null ? null : <p className="task-error">{task.error}</p>}
    </header>
  );
}

/** "30 min", "90 s": how long an iteration waits for hypotheses. */
function formatWait(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}
