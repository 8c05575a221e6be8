'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { formatArgv } from '../format';
import { splitCommandLine } from '../task-list/command-line';
import { Field } from '../task-list/form-field';
import { useTRPC } from '../trpc/client';
import { maxSetBytes } from './eval-format';

const whole = (text: string): number => (/^\d+$/.test(text.trim()) ? Number(text) : Number.NaN);

/**
 * A new run on this server: a set pasted or read from a file (in the browser), the server's
 * model, k attempts per instance, parallel tasks. The run's page follows.
 */
export function NewEvalRunForm({ serverModel }: { readonly serverModel: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [set, setSet] = useState('');
  const [setName, setSetName] = useState('');
  const [model, setModel] = useState(serverModel ?? '');
  const [k, setK] = useState('3');
  const [parallel, setParallel] = useState('2');
  const [maxIterations, setMaxIterations] = useState('3');
  const [command, setCommand] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const start = useMutation(
    trpc.evals.start.mutationOptions({
      onSuccess: (run) => {
        void queryClient.invalidateQueries(trpc.evals.list.queryFilter());
        router.push(`/coding/evals/${run.runId}`);
      },
    }),
  );
  const split = command.trim() === '' ? null : splitCommandLine(command);

  const readFile = async (file: File | undefined) => {
    if (file === undefined) return;
    if (file.size > maxSetBytes) {
      setProblem(`${file.name} is larger than ${maxSetBytes / 1024 / 1024} MiB`);
      return;
    }
    setProblem(null);
    setSet(await file.text());
    setSetName(file.name);
  };

  return (
    <form
      aria-label="New eval run"
      onSubmit={(event) => {
        event.preventDefault();
        if (split?.ok === false) {
          setProblem(`Test command: ${split.message}`);
          return;
        }
        setProblem(null);
        start.mutate({
          set,
          ...(setName === '' ? {} : { setName }),
          ...(model.trim() === '' ? {} : { model: model.trim() }),
          k: whole(k),
          parallel: whole(parallel),
          maxIterations: whole(maxIterations),
          ...(split?.ok === true ? { testCommand: [...split.argv] } : {}),
        });
      }}
    >
      <Field
        id="eval-set"
        label="Set (JSON Lines)"
        error={undefined}
        hint="One instance per line in the SWE-bench format, as `shadowbox eval build` writes it. Repositories must be Git URLs."
      >
        {(control) => (
          <textarea
            {...control}
            className="mono"
            rows={8}
            spellCheck={false}
            value={set}
            onChange={(event) => {
              setSet(event.target.value);
              setSetName('');
            }}
          />
        )}
      </Field>
      <Field id="eval-set-file" label="Or a set file" error={undefined}>
        {(control) => (
          <input
            {...control}
            type="file"
            accept=".jsonl,.json,application/jsonl,text/plain"
            onChange={(event) => void readFile(event.target.files?.[0])}
          />
        )}
      </Field>
      <div className="field-row">
        <Field
          id="eval-model"
          label="Model"
          error={undefined}
          hint={
            serverModel === null
              ? 'No LLM is configured on this server.'
              : `This server runs ${serverModel}.`
          }
        >
          {(control) => (
            <input
              {...control}
              className="mono"
              value={model}
              onChange={(e) => setModel(e.target.value)}
            />
          )}
        </Field>
        <Field id="eval-k" label="Attempts per instance (k)" error={undefined}>
          {(control) => (
            <input
              {...control}
              inputMode="numeric"
              value={k}
              onChange={(e) => setK(e.target.value)}
            />
          )}
        </Field>
        <Field id="eval-parallel" label="Parallel tasks" error={undefined}>
          {(control) => (
            <input
              {...control}
              inputMode="numeric"
              value={parallel}
              onChange={(e) => setParallel(e.target.value)}
            />
          )}
        </Field>
        <Field id="eval-max-iterations" label="Max iterations" error={undefined}>
          {(control) => (
            <input
              {...control}
              inputMode="numeric"
              value={maxIterations}
              onChange={(e) => setMaxIterations(e.target.value)}
            />
          )}
        </Field>
      </div>
      <Field
        id="eval-test-command"
        label="Test command (for instances without one)"
        error={undefined}
        hint={
          split?.ok === true
            ? `Runs without a shell: ${formatArgv(split.argv)}`
            : 'Optional; as on a command line, e.g. python3 -m pytest -q.'
        }
      >
        {(control) => (
          <input
            {...control}
            className="mono"
            autoComplete="off"
            spellCheck={false}
            value={command}
            onChange={(e) => setCommand(e.target.value)}
          />
        )}
      </Field>
      <div className="actions">
        <button type="submit" className="primary" disabled={start.isPending}>
          Start run
        </button>
        {start.isPending ? <span className="hint">Checking the set…</span> : null}
      </div>
      {problem !== null || start.isError ? (
        <p className="form-error" role="alert">
          {problem ?? errorInfo(start.error).message}
        </p>
      ) : null}
    </form>
  );
}
