import { plural } from '../../format';
import type { ReviewFile } from './diff-files';

function describe(file: ReviewFile): string {
  const kind = file.binary ? 'binary, ' : '';
  if (file.status === 'renamed' || file.status === 'copied') {
    return `${kind}${file.status} from ${file.oldPath ?? '?'}`;
  }
  return `${kind}${file.status}`;
}

/** A file's header in the files view: its name, what changed, its threads, and its controls. */
export function FileHeaderRow({
  file,
  collapsed,
  threads,
  current,
  onToggle,
  onOpenInEditor,
}: {
  readonly file: ReviewFile;
  readonly collapsed: boolean;
  readonly threads: number;
  /** The file `j`/`k` moved to. */
  readonly current: boolean;
  readonly onToggle: () => void;
  readonly onOpenInEditor: (() => void) | null;
}) {
  return (
    <div
      className={`conv-file-header${current ? ' current' : ''}`}
      id={`review-file-${file.index}`}
      tabIndex={-1}
    >
      <h4 className="mono">{file.path}</h4>
      <span className="muted">
        {describe(file)} · +{file.additions} −{file.deletions}
        {threads === 0 ? null : ` · ${plural(threads, 'thread')}`}
      </span>
      <button type="button" aria-expanded={!collapsed} onClick={onToggle}>
        {collapsed ? 'Show' : 'Hide'} {file.path}
      </button>
      {onOpenInEditor === null ? null : (
        <button type="button" onClick={onOpenInEditor}>
          Open {file.path} in the diff editor
        </button>
      )}
    </div>
  );
}
