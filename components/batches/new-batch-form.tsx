'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { formatTime, plural } from '../format';
import { ShortId } from '../short-id';
import { useTRPC } from '../trpc/client';
import type { TaskPage } from '../trpc/router-types';
import {
  approvedTasksQuery,
  groupByRepository,
  selectionProblem,
  toggleTask,
} from './batch-picker';

/**
 * A new batch: the approved tasks the person sees, by repository, checked in the order the batch
 * applies them. Start is enabled for 2 to 8 tasks of one repository (the line under it says why
 * not otherwise); the new batch's page follows.
 */
export function NewBatchForm({ initialTasks }: { readonly initialTasks: TaskPage }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const id = useId();
  const approved = useQuery(
    trpc.tasks.list.queryOptions(approvedTasksQuery, { initialData: initialTasks }),
  );
  const [selection, setSelection] = useState<readonly string[]>([]);
  const create = useMutation(
    trpc.batches.create.mutationOptions({
      onSuccess: (view) => {
        void queryClient.invalidateQueries(trpc.batches.list.queryFilter());
        router.push(`/coding/batches/${view.id}`);
      },
    }),
  );

  const tasks = approved.data.tasks;
  const groups = groupByRepository(tasks);
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const problem = selectionProblem(selection, tasks);
  const hintId = `${id}-hint`;

  if (groups.length === 0) {
    return (
      <p className="list-empty">
        No approved task to combine yet: a batch takes tasks whose fix was approved.
      </p>
    );
  }
  return (
    <form
      aria-label="New batch"
      onSubmit={(event) => {
        event.preventDefault();
        if (problem === null) create.mutate({ tasks: [...selection] });
      }}
    >
      <p className="hint">
        Pick the tasks in the order to apply them: the first checked is applied first.
      </p>
      {groups.map((group) => (
        <fieldset key={group.key} className="field">
          <legend>
            <span className="mono">{group.label}</span>
            {group.kind === 'archive'
              ? ' (uploads of an archive: tested and reviewed, not pushed)'
              : null}
          </legend>
          <ul>
            {group.tasks.map((task) => {
              const place = selection.indexOf(task.id);
              const inputId = `${id}-${task.id}`;
              return (
                <li key={task.id}>
                  <input
                    type="checkbox"
                    id={inputId}
                    checked={place >= 0}
                    onChange={() => setSelection(toggleTask(selection, task.id))}
                  />{' '}
                  <label htmlFor={inputId}>{task.title}</label>{' '}
                  {place < 0 ? null : <strong>#{place + 1}</strong>}{' '}
                  <span className="muted">
                    by {task.owner ?? 'nobody'} · updated{' '}
                    <time dateTime={task.updatedAt}>{formatTime(task.updatedAt)}</time> · task{' '}
                  </span>
                  <ShortId id={task.id} what="task id" />
                </li>
              );
            })}
          </ul>
        </fieldset>
      ))}
      {approved.data.nextCursor === null ? null : (
        <p className="hint">Only the {tasks.length} most recent approved tasks are listed.</p>
      )}
      {selection.length === 0 ? null : (
        <p>
          Order:{' '}
          {selection
            .map((taskId, place) => `#${place + 1} ${byId.get(taskId)?.title ?? taskId}`)
            .join(', ')}
        </p>
      )}
      <div className="actions">
        <button
          type="submit"
          className="primary"
          disabled={problem !== null || create.isPending}
          aria-describedby={hintId}
        >
          Start batch
        </button>
        <span id={hintId} className="hint" role="status">
          {create.isPending
            ? 'Starting: every pair is merged first…'
            : (problem ?? `${plural(selection.length, 'task')} of one repository: ready.`)}
        </span>
      </div>
      {create.isError ? (
        <p className="form-error" role="alert">
          {errorInfo(create.error).message}
        </p>
      ) : null}
    </form>
  );
}
