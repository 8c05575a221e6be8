'use client';

import { useQuery } from '@tanstack/react-query';
import { errorInfo } from '../errors/error-info';
import { formatBytes } from '../format';
import { useTRPC } from '../trpc/client';

/** A select of the workspace's files (at the newest checkpoint), labelled "File". */
export function FilePicker({
  taskId,
  path,
  edited,
  onPick,
}: {
  readonly taskId: string;
  readonly path: string | null;
  readonly edited: ReadonlyMap<string, string>;
  readonly onPick: (path: string) => void;
}) {
  const trpc = useTRPC();
  const files = useQuery(trpc.tasks.listFiles.queryOptions({ taskId }));
  const id = `${taskId}-file`;
  return (
    <div className="field">
      <label htmlFor={id}>File</label>
      <select
        id={id}
        value={path ?? ''}
        disabled={files.data === undefined}
        onChange={(event) => {
          if (event.target.value !== '') onPick(event.target.value);
        }}
      >
        <option value="" disabled>
          {files.isPending ? 'Loading the files…' : 'Choose a file to edit'}
        </option>
        {files.data?.map((file) => (
          <option key={file.path} value={file.path}>
            {file.path} ({formatBytes(file.size)}){edited.has(file.path) ? ' — changed' : ''}
          </option>
        ))}
      </select>
      {files.isError ? (
        <p className="field-error" role="alert">
          {errorInfo(files.error).message}
        </p>
      ) : null}
    </div>
  );
}
