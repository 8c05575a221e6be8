'use client';

import { html } from 'diff2html';
import { ColorSchemeType } from 'diff2html/lib/types';
import { useMemo } from 'react';
import type { PatchFile } from './patch-files';

export type DiffLayout = 'side-by-side' | 'line-by-line';

function describeStatus(file: PatchFile): string {
  const kind = file.binary ? 'binary, ' : '';
  if (file.status === 'renamed' || file.status === 'copied') {
    return `${kind}${file.status} from ${file.oldPath ?? '?'}`;
  }
  return `${kind}${file.status}`;
}

/** One file of the diff: its header, and diff2html's rendering when shown. */
export function DiffFile({
  file,
  layout,
  shown,
  onToggle,
  onOpenInEditor,
}: {
  readonly file: PatchFile;
  readonly layout: DiffLayout;
  readonly shown: boolean;
  readonly onToggle: () => void;
  readonly onOpenInEditor?: () => void;
}) {
  // diff2html escapes the diff's text; its HTML is rendered as given.
  const rendered = useMemo(
    () =>
      shown
        ? html(file.text, {
            outputFormat: layout,
            drawFileList: false,
            matching: 'lines',
            colorScheme: ColorSchemeType.AUTO,
          })
        : null,
    [file.text, layout, shown],
  );
  const headingId = `diff-file-${file.index}-heading`;
  return (
    <section id={`diff-file-${file.index}`} className="diff-file" aria-labelledby={headingId}>
      <div className="diff-file-header">
        <h4 id={headingId} className="mono">
          {file.path}
        </h4>
        <span className="muted">
          {describeStatus(file)} · +{file.additions} −{file.deletions}
        </span>
        <button type="button" aria-expanded={shown} onClick={onToggle}>
          {shown ? 'Hide' : 'Show'} the diff of {file.path}
        </button>
        {file.binary || onOpenInEditor === undefined ? null : (
          <button type="button" onClick={onOpenInEditor}>
            Open {file.path} in the diff editor
          </button>
        )}
      </div>
      {rendered === null ? null : (
        <div className="d2h" dangerouslySetInnerHTML={{ __html: rendered }} />
      )}
    </section>
  );
}
