'use client';

import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { html } from 'diff2html';
import { ColorSchemeType } from 'diff2html/lib/types';
import { useId, useMemo, useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { planPatch, type PatchFile } from '../review/patch-files';
import { useTRPC } from '../trpc/client';
import type { AppRouter, TaskView } from '../trpc/router-types';

type InterdiffView = inferRouterOutputs<AppRouter>['tasks']['interdiff'];

/** One tree of the task the reader may pick: its ref (interdiff-refs.ts) and its label. */
export interface TreeOption {
  readonly ref: string;
  readonly label: string;
}

/**
 * Every tree of the task, oldest first: the baseline, then per finished iteration each of its
 * hypotheses and the checkpoint it left. Labels are text (names are a task's, hence hostile, and
 * React escapes them).
 */
export function treeOptions(task: Pick<TaskView, 'iterations'>): TreeOption[] {
  const options: TreeOption[] = [{ ref: 'checkpoint:0', label: 'Baseline (checkpoint 0)' }];
  for (const iteration of task.iterations) {
    if (iteration.status !== 'done') continue;
    for (const h of iteration.hypotheses) {
      const role = h.name === iteration.winner ? 'winner' : h.verdict;
      options.push({
        ref: `hypothesis:${iteration.index}/${h.name}`,
        label: `Iteration ${iteration.index} · ${h.name} (${role})`,
      });
    }
    options.push({
      ref: `checkpoint:${iteration.index}`,
      label: `Checkpoint after iteration ${iteration.index}${iteration.winner === null ? ' (no winner: unchanged)' : ''}`,
    });
  }
  return options;
}

/**
 * What opens first: the newest finished iteration's winner against its runner-up, else the
 * checkpoint before it against the one it left.
 */
export function defaultPair(task: Pick<TaskView, 'iterations'>): readonly [string, string] {
  const newest = task.iterations.filter((it) => it.status === 'done').at(-1);
  if (newest === undefined) return ['checkpoint:0', 'checkpoint:0'];
  const ranked = newest.hypotheses;
  const winner = ranked.find((h) => h.name === newest.winner);
  const other = ranked.find((h) => h.name !== newest.winner);
  if (winner !== undefined && other !== undefined) {
    return [
      `hypothesis:${newest.index}/${winner.name}`,
      `hypothesis:${newest.index}/${other.name}`,
    ];
  }
  return [`checkpoint:${newest.index - 1}`, `checkpoint:${newest.index}`];
}

/**
 * diff2html's side-by-side rendering of one file's diff. The diff is a task's, hence hostile:
 * diff2html escapes every line and path it prints (a test holds it to that), and its HTML is
 * the only HTML rendered as given.
 */
export function fileDiffHtml(text: string): string {
  return html(text, {
    outputFormat: 'side-by-side',
    drawFileList: false,
    matching: 'lines',
    colorScheme: ColorSchemeType.AUTO,
  });
}

const changeWords: Readonly<Record<InterdiffView['files'][number]['change'], string>> = {
  added: 'only in B',
  deleted: 'only in A',
  modified: 'differs',
  same: 'same in both',
};

/**
 * Interdiff: any two trees of the task (two hypotheses, a hypothesis and a checkpoint, two
 * checkpoints of the winner's history) side by side, over the union of the files they touch.
 * Mounted by the task page (a tab); `task` is the page's live view.
 */
export function InterdiffView({ task }: { readonly task: TaskView }) {
  const trpc = useTRPC();
  const options = useMemo(() => treeOptions(task), [task]);
  const [initialA, initialB] = defaultPair(task);
  const [a, setA] = useState(initialA);
  const [b, setB] = useState(initialB);
  const ids = useId();
  // Nothing to compare before an iteration has finished (the baseline against itself).
  const ready = task.iterations.some((it) => it.status === 'done');
  const query = useQuery(
    trpc.tasks.interdiff.queryOptions({ taskId: task.id, a, b }, { enabled: ready }),
  );
  const view = query.data;
  if (!ready) {
    return (
      <section className="interdiff" aria-labelledby={`${ids}-title`}>
        <h2 id={`${ids}-title`}>Interdiff</h2>
        <p className="muted">No iteration has finished yet: there is nothing to compare.</p>
      </section>
    );
  }

  return (
    <section className="interdiff" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Interdiff</h2>
      <div className="interdiff-pickers">
        <TreePicker id={`${ids}-a`} label="Compare" value={a} options={options} onChange={setA} />
        <TreePicker id={`${ids}-b`} label="with" value={b} options={options} onChange={setB} />
        <button
          type="button"
          onClick={() => {
            setA(b);
            setB(a);
          }}
        >
          Swap
        </button>
      </div>
      {query.isLoading ? <p role="status">Loading the interdiff…</p> : null}
      {query.isError ? (
        <p className="form-error" role="alert">
          {errorInfo(query.error).message}
        </p>
      ) : null}
      {view === undefined ? null : <InterdiffBody view={view} />}
    </section>
  );
}

function TreePicker({
  id,
  label,
  value,
  options,
  onChange,
}: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly options: readonly TreeOption[];
  readonly onChange: (ref: string) => void;
}) {
  return (
    <span className="interdiff-picker">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.ref} value={option.ref}>
            {option.label}
          </option>
        ))}
      </select>
    </span>
  );
}

function InterdiffBody({ view }: { readonly view: InterdiffView }) {
  const plan = useMemo(() => planPatch(view.diff), [view.diff]);
  const byPath = new Map(plan.files.map((file) => [file.path, file]));
  return (
    <>
      <table className="interdiff-files">
        <caption>Files either side touches</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Touched by A</th>
            <th scope="col">Touched by B</th>
            <th scope="col">From A to B</th>
          </tr>
        </thead>
        <tbody>
          {view.files.map((file) => (
            <tr key={file.path}>
              <th scope="row" className="mono">
                {byPath.has(file.path) ? (
                  <a href={`#interdiff-${byPath.get(file.path)?.index ?? 0}`}>{file.path}</a>
                ) : (
                  file.path
                )}
              </th>
              <td>{file.inA ? 'yes' : '—'}</td>
              <td>{file.inB ? 'yes' : '—'}</td>
              <td>{changeWords[file.change]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {view.diff === '' ? (
        <p className="muted">The two trees are the same: there is no difference to show.</p>
      ) : (
        plan.files.map((file) => (
          <InterdiffFile key={file.index} file={file} initiallyShown={!plan.summaryOnly} />
        ))
      )}
    </>
  );
}

function InterdiffFile({
  file,
  initiallyShown,
}: {
  readonly file: PatchFile;
  readonly initiallyShown: boolean;
}) {
  const [shown, setShown] = useState(initiallyShown);
  const rendered = useMemo(() => (shown ? fileDiffHtml(file.text) : null), [file.text, shown]);
  return (
    <section id={`interdiff-${file.index}`} className="diff-file" aria-label={file.path}>
      <div className="diff-file-header">
        <h3 className="mono">{file.path}</h3>
        <span className="muted">
          {file.binary ? 'binary, ' : ''}
          {file.status} · +{file.additions} −{file.deletions}
        </span>
        <button type="button" aria-expanded={shown} onClick={() => setShown(!shown)}>
          {shown ? 'Hide' : 'Show'} the interdiff of {file.path}
        </button>
      </div>
      {rendered === null ? null : (
        <div className="d2h" dangerouslySetInnerHTML={{ __html: rendered }} />
      )}
    </section>
  );
}
