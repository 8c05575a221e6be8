'use client';

import { useMemo, useState } from 'react';
import { plural } from '../format';
import { DiffFile, type DiffLayout } from './diff-file';
import { planPatch, previewLineCap, type PatchFile } from './patch-files';

/**
 * The diff, file by file, with a layout toggle and a list of files to jump between. A diff of
 * more than `previewLineCap` changed lines starts as a summary: each file renders when opened.
 */
export function DiffViewer({
  diff,
  onOpenInEditor,
}: {
  readonly diff: string;
  /** Where files can be opened whole (a task's worktree); without it, no button offers to. */
  readonly onOpenInEditor?: (file: PatchFile) => void;
}) {
  const plan = useMemo(() => planPatch(diff), [diff]);
  const [layout, setLayout] = useState<DiffLayout>('side-by-side');
  // Per file: shown or hidden by the reviewer; otherwise the plan decides.
  const [toggled, setToggled] = useState<ReadonlyMap<number, boolean>>(new Map());
  const shown = (index: number): boolean => toggled.get(index) ?? !plan.summaryOnly;
  const show = (index: number, value: boolean): void => {
    setToggled(new Map(toggled).set(index, value));
  };

  return (
    <div className="diff-viewer">
      <fieldset className="layout">
        <legend>Diff layout</legend>
        {(['side-by-side', 'line-by-line'] as const).map((option) => (
          <label key={option}>
            <input
              type="radio"
              name="diff-layout"
              value={option}
              checked={layout === option}
              onChange={() => setLayout(option)}
            />{' '}
            {option === 'side-by-side' ? 'Side by side' : 'Line by line'}
          </label>
        ))}
      </fieldset>
      {plan.summaryOnly ? (
        <p className="notice">
          This diff changes {plan.changedLines} lines (more than {previewLineCap}), so the files are
          listed first: open the ones you want to read.
        </p>
      ) : null}
      <nav aria-label="Files in this diff">
        <h3>{plural(plan.files.length, 'file')}</h3>
        <ol className="file-list">
          {plan.files.map((file) => (
            <li key={file.index}>
              <a
                href={`#diff-file-${file.index}`}
                className="mono"
                onClick={() => {
                  if (!shown(file.index)) show(file.index, true);
                }}
              >
                {file.path}
              </a>{' '}
              <span className="muted">
                +{file.additions} −{file.deletions}
                {file.status === 'modified' ? '' : ` · ${file.status}`}
                {file.binary ? ' · binary' : ''}
              </span>
            </li>
          ))}
        </ol>
      </nav>
      {plan.files.map((file) => (
        <DiffFile
          key={file.index}
          file={file}
          layout={layout}
          shown={shown(file.index)}
          onToggle={() => show(file.index, !shown(file.index))}
          {...(onOpenInEditor === undefined ? {} : { onOpenInEditor: () => onOpenInEditor(file) })}
        />
      ))}
    </div>
  );
}
