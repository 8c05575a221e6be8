'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { useId, useState, type SubmitEvent } from 'react';
import { errorInfo } from '../errors/error-info';
import { Field } from '../task-list/form-field';
import { useTRPC } from '../trpc/client';
import { FilePicker } from './file-picker';

const CodeEditor = dynamic(() => import('../monaco/code-editor'), {
  ssr: false,
  loading: () => <p>Loading the editor…</p>,
});

/**
 * A hypothesis written by hand: open workspace files in Monaco, edit them, name the change and
 * submit it. It joins the task's next iteration and runs like any other.
 */
export function HypothesisAuthor({
  taskId,
  canSubmit,
}: {
  readonly taskId: string;
  readonly canSubmit: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [path, setPath] = useState<string | null>(null);
  const [edits, setEdits] = useState<ReadonlyMap<string, string>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<string | null>(null);

  const file = useQuery(
    trpc.tasks.readFile.queryOptions({ taskId, path: path ?? '' }, { enabled: path !== null }),
  );
  const submit = useMutation(
    trpc.tasks.submitHypothesis.mutationOptions({
      onSuccess: (result) => {
        // Still true after it ran: the table, not this note, tells how it went.
        setSubmitted(
          `Submitted ${result.accepted.join(', ')}. It is queued for an iteration; its result appears in the Hypotheses table.`,
        );
        setName('');
        setEdits(new Map());
        void queryClient.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ taskId }) });
      },
      onError: (failure) => setError(errorInfo(failure).message),
    }),
  );

  function onSubmit(event: SubmitEvent<HTMLFormElement>): void {
    event.preventDefault();
    setSubmitted(null);
    const problem =
      name.trim() === ''
        ? 'Give the hypothesis a name.'
        : edits.size === 0
          ? 'Change at least one file before submitting.'
          : null;
    setError(problem);
    if (problem !== null) return;
    const changed = [...edits].map(([editPath, content]) => ({ path: editPath, content }));
    submit.mutate({ taskId, hypothesis: { name: name.trim(), edits: changed } });
  }

  const content = path === null ? null : (edits.get(path) ?? file.data?.content ?? null);
  return (
    <section aria-labelledby={`${formId}-heading`}>
      <h2 id={`${formId}-heading`}>Write a hypothesis</h2>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={`${formId}-form`}
        disabled={!canSubmit}
        onClick={() => setOpen(!open)}
      >
        New hypothesis
      </button>
      {canSubmit ? null : <span className="hint"> This task takes no more hypotheses.</span>}
      {submitted === null ? null : <p role="status">{submitted}</p>}
      {!open ? null : (
        <form id={`${formId}-form`} className="author" onSubmit={onSubmit} noValidate>
          <Field id={`${formId}-name`} label="Hypothesis name" error={undefined}>
            {(control) => (
              <input
                {...control}
                required
                maxLength={200}
                autoComplete="off"
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
            )}
          </Field>
          <FilePicker taskId={taskId} path={path} edited={edits} onPick={setPath} />
          {path === null ? null : file.isError && !edits.has(path) ? (
            <p className="form-error" role="alert">
              {errorInfo(file.error).message}
            </p>
          ) : content === null ? (
            <p>Loading {path}…</p>
          ) : (
            <>
              <p className="hint">
                In the editor, Tab inserts a tab: press Ctrl+M (Ctrl+Shift+M on a Mac) so that Tab
                moves the focus on.
              </p>
              <CodeEditor
                modelPath={`${taskId}/${path}`}
                filePath={path}
                value={content}
                onChange={(text) => setEdits(new Map(edits).set(path, text))}
              />
            </>
          )}
          <EditedFiles edits={edits} onUndo={(undo) => setEdits(without(edits, undo))} />
          {error === null ? null : (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="primary" disabled={submit.isPending}>
            Submit hypothesis
          </button>
        </form>
      )}
    </section>
  );
}

function without(edits: ReadonlyMap<string, string>, path: string): ReadonlyMap<string, string> {
  const next = new Map(edits);
  next.delete(path);
  return next;
}

function EditedFiles({
  edits,
  onUndo,
}: {
  readonly edits: ReadonlyMap<string, string>;
  readonly onUndo: (path: string) => void;
}) {
  if (edits.size === 0) return <p className="muted">No file changed yet.</p>;
  return (
    <div>
      <p>Changed files (the hypothesis replaces each with its new contents):</p>
      <ul className="edited">
        {[...edits.keys()].map((editPath) => (
          <li key={editPath}>
            <span className="mono">{editPath}</span>{' '}
            <button type="button" onClick={() => onUndo(editPath)}>
              Undo changes to {editPath}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
