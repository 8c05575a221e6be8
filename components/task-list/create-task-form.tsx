'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type SubmitEvent } from 'react';
import { errorInfo } from '../errors/error-info';
import { formatArgv } from '../format';
import { useTRPC } from '../trpc/client';
import { splitCommandLine } from './command-line';
import { Field } from './form-field';
import { fieldOfError, type CreateField } from './form-errors';
import {
  emptyRunLimits,
  runLimitsOf,
  RunLimitsFields,
  type RunLimitValues,
} from './run-limits-fields';
import { purposeOf } from './purpose-input';
import { SetupFields } from './setup-fields';
import { emptySetup, setupInputOf, type SetupValues } from './setup-input';
import { uploadArchive } from './upload-archive';

type Errors = Partial<Record<CreateField | 'form', string>>;

/** Creates a task from a Git URL (tRPC) or an uploaded archive (with a progress bar). */
export function CreateTaskForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const create = useMutation(trpc.tasks.create.mutationOptions());
  const [gitUrl, setGitUrl] = useState('');
  const [ref, setRef] = useState('');
  const [archive, setArchive] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [problem, setProblem] = useState('');
  const [issueUrl, setIssueUrl] = useState('');
  const [command, setCommand] = useState('');
  const [maxIterations, setMaxIterations] = useState('3');
  const [perIteration, setPerIteration] = useState('3');
  const [waitSecs, setWaitSecs] = useState('1800');
  const [limits, setLimits] = useState<RunLimitValues>(emptyRunLimits);
  const [setup, setSetup] = useState<SetupValues>(emptySetup);
  const [errors, setErrors] = useState<Errors>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  const split = command.trim() === '' ? null : splitCommandLine(command);
  const setupInput = setupInputOf(setup);

  function check(): Errors {
    const found: Errors = {};
    const url = gitUrl.trim();
    if (archive !== null && url !== '') found.gitUrl = 'Give a Git URL or an archive, not both.';
    if (archive === null && url === '') found.gitUrl = 'Give a Git URL, or choose an archive.';
    if (archive !== null && ref.trim() !== '') found.ref = 'A ref applies to a Git URL only.';
    if (split === null) found.testCommand = 'Give the command that runs the tests.';
    else if (!split.ok) found.testCommand = split.message;
    if (!setupInput.ok) found[setupInput.field] = setupInput.message;
    return found;
  }

  function show(found: Errors): void {
    setErrors(found);
    const first = (Object.keys(found) as (keyof Errors)[])[0];
    if (first !== undefined && first !== 'form')
      document.getElementById(`create-${first}`)?.focus();
  }

  async function submit(event: SubmitEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const found = check();
    if (Object.keys(found).length > 0 || split === null || !split.ok || !setupInput.ok) {
      show(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const settings = {
        testCommand: [...split.argv],
        maxIterations: Number(maxIterations),
        hypothesesPerIteration: Number(perIteration),
        hypothesisWaitSecs: Number(waitSecs),
        ...runLimitsOf(limits),
        ...setupInput.input,
        ...purposeOf({ title, problem, issueUrl }),
      };
      let id: string;
      if (archive !== null) {
        setProgress(0);
        ({ id } = await uploadArchive({ ...settings, file: archive, onProgress: setProgress }));
      } else {
        const trimmedRef = ref.trim();
        ({ id } = await create.mutateAsync({
          ...settings,
          gitUrl: gitUrl.trim(),
          ...(trimmedRef === '' ? {} : { ref: trimmedRef }),
        }));
      }
      router.push(`/coding/${id}`);
    } catch (error) {
      const info = errorInfo(error);
      show({ [fieldOfError(info) ?? 'form']: info.message });
      setProgress(null);
      setBusy(false);
    }
  }

  return (
    <form className="create-task" onSubmit={(event) => void submit(event)} noValidate>
      <fieldset>
        <legend>What it is for (optional)</legend>
        <Field
          id="create-title"
          label="Title"
          error={errors.title}
          hint="One line; left empty, the repository's or the archive's name."
        >
          {(control) => (
            <input
              {...control}
              autoComplete="off"
              value={title}
              onChange={(event) => setTitle(event.target.value)}
            />
          )}
        </Field>
        <Field
          id="create-problem"
          label="Problem (Markdown)"
          error={errors.problem}
          hint="The bug report or issue text; up to 64 KB."
        >
          {(control) => (
            <textarea
              {...control}
              rows={5}
              value={problem}
              onChange={(event) => setProblem(event.target.value)}
            />
          )}
        </Field>
        <Field
          id="create-issueUrl"
          label="Issue URL"
          error={errors.issueUrl}
          hint="https:// only; shown as a link."
        >
          {(control) => (
            <input
              {...control}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              value={issueUrl}
              onChange={(event) => setIssueUrl(event.target.value)}
            />
          )}
        </Field>
      </fieldset>
      <fieldset>
        <legend>Source: a Git repository or an archive</legend>
        <Field id="create-gitUrl" label="Git URL" error={errors.gitUrl} hint="https:// only.">
          {(control) => (
            <input
              {...control}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://github.com/owner/repo.git"
              value={gitUrl}
              onChange={(event) => setGitUrl(event.target.value)}
            />
          )}
        </Field>
        <Field
          id="create-ref"
          label="Ref"
          error={errors.ref}
          hint="Branch, tag or commit (optional)."
        >
          {(control) => (
            <input
              {...control}
              autoComplete="off"
              spellCheck={false}
              value={ref}
              onChange={(event) => setRef(event.target.value)}
            />
          )}
        </Field>
        <Field
          id="create-archive"
          label="Archive"
          error={errors.archive}
          hint="zip, tar or tar.gz."
        >
          {(control) => (
            <input
              {...control}
              type="file"
              accept=".zip,.tar,.tgz,.tar.gz,application/zip,application/x-tar,application/gzip"
              onChange={(event) => setArchive(event.target.files?.[0] ?? null)}
            />
          )}
        </Field>
        {progress === null ? null : (
          <div className="upload-progress">
            <label htmlFor="create-progress">Upload progress</label>
            <progress id="create-progress" max={1} value={progress} />
            <span>{Math.round(progress * 100)}%</span>
          </div>
        )}
      </fieldset>
      <Field
        id="create-testCommand"
        label="Test command"
        error={errors.testCommand}
        hint={
          split?.ok === true
            ? `Runs without a shell: ${formatArgv(split.argv)}`
            : 'As on a command line, e.g. python3 -m pytest -q; it runs without a shell.'
        }
      >
        {(control) => (
          <input
            {...control}
            className="mono"
            autoComplete="off"
            spellCheck={false}
            required
            value={command}
            onChange={(event) => setCommand(event.target.value)}
          />
        )}
      </Field>
      <div className="field-row">
        <Field id="create-maxIterations" label="Max iterations" error={errors.maxIterations}>
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={10}
              required
              value={maxIterations}
              onChange={(event) => setMaxIterations(event.target.value)}
            />
          )}
        </Field>
        <Field
          id="create-hypothesesPerIteration"
          label="Hypotheses per iteration"
          error={errors.hypothesesPerIteration}
        >
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={16}
              required
              value={perIteration}
              onChange={(event) => setPerIteration(event.target.value)}
            />
          )}
        </Field>
        <Field
          id="create-hypothesisWaitSecs"
          label="Wait for hypotheses (s)"
          error={errors.hypothesisWaitSecs}
          hint="Then a partial fix goes to review."
        >
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={3600}
              required
              value={waitSecs}
              onChange={(event) => setWaitSecs(event.target.value)}
            />
          )}
        </Field>
      </div>
      <SetupFields values={setup} errors={errors} onChange={setSetup} />
      <RunLimitsFields values={limits} errors={errors} onChange={setLimits} />
      {errors.form === undefined ? null : (
        <p className="form-error" role="alert">
          {errors.form}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        Create task
      </button>
      {busy ? <span className="muted"> Creating…</span> : null}
    </form>
  );
}
