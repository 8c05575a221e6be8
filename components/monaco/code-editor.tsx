'use client';

import Editor from '@monaco-editor/react';
import { languageOf } from './monaco-loader';
import { useColorScheme } from './use-color-scheme';

/** Monaco for one workspace file (loaded with next/dynamic, never rendered on the server). */
export default function CodeEditor({
  modelPath,
  filePath,
  value,
  onChange,
}: {
  /** Unique per task and file: Monaco keeps one model (and undo history) per path. */
  readonly modelPath: string;
  readonly filePath: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  const scheme = useColorScheme();
  return (
    <Editor
      height="26rem"
      path={modelPath}
      language={languageOf(filePath)}
      value={value}
      theme={scheme === 'dark' ? 'vs-dark' : 'light'}
      loading={<p>Loading the editor…</p>}
      onChange={(text) => onChange(text ?? '')}
      options={{
        ariaLabel: `Contents of ${filePath}`,
        minimap: { enabled: false },
        scrollBeyondLastLine: false,
        automaticLayout: true,
        fontSize: 14,
      }}
    />
  );
}
