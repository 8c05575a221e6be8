'use client';

import { DiffEditor } from '@monaco-editor/react';
import { languageOf } from './monaco-loader';
import { useColorScheme } from './use-color-scheme';

/** Monaco's diff editor for one file, read-only (loaded with next/dynamic). */
export default function FileDiffEditor({
  filePath,
  original,
  modified,
}: {
  readonly filePath: string;
  readonly original: string;
  readonly modified: string;
}) {
  const scheme = useColorScheme();
  return (
    <DiffEditor
      height="28rem"
      language={languageOf(filePath)}
      original={original}
      modified={modified}
      theme={scheme === 'dark' ? 'vs-dark' : 'light'}
      loading={<p>Loading the diff editor…</p>}
      options={{
        readOnly: true,
        originalEditable: false,
        renderSideBySide: true,
        minimap: { enabled: false },
        automaticLayout: true,
        ariaLabel: `Changes to ${filePath}`,
      }}
    />
  );
}
