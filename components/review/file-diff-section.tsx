'use client';

import { useQuery } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { useMemo } from 'react';
import { useTRPC } from '../trpc/client';
import { filePair } from './file-contents';
import type { PatchFile } from './patch-files';

const FileDiffEditor = dynamic(() => import('../monaco/file-diff-editor'), {
  ssr: false,
  loading: () => <p>Loading the diff editor…</p>,
});

/** One file in Monaco's diff editor: the workspace's copy and the other side rebuilt from the diff. */
export function FileDiffSection({
  taskId,
  file,
  onClose,
}: {
  readonly taskId: string;
  readonly file: PatchFile;
  readonly onClose: () => void;
}) {
  const trpc = useTRPC();
  // A deleted file is not in the workspace any more: its diff holds all of it.
  const needsContent = file.status !== 'deleted';
  const content = useQuery(
    trpc.tasks.readFile.queryOptions(
      { taskId, path: file.newPath ?? file.path },
      { enabled: needsContent, retry: false },
    ),
  );
  const ready = !needsContent || content.isSuccess || content.isError;
  const pair = useMemo(
    () => (ready ? filePair(file, content.data?.content ?? null) : null),
    [ready, file, content.data],
  );
  return (
    <section className="file-diff" aria-labelledby="file-diff-heading">
      <h3 id="file-diff-heading">
        Diff editor: <span className="mono">{file.path}</span>
      </h3>
      <button type="button" onClick={onClose}>
        Close the diff editor
      </button>
      {!ready ? (
        <p>Loading {file.path}…</p>
      ) : pair === null ? (
        <p className="notice">
          {file.path} cannot be shown here: it is binary, or the workspace no longer holds either
          side of this diff. The diff above shows it.
        </p>
      ) : (
        <FileDiffEditor filePath={file.path} original={pair.original} modified={pair.modified} />
      )}
    </section>
  );
}
