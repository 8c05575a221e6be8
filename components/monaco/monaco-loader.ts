import { loader } from '@monaco-editor/react';

/**
 * Monaco is served by this app from public/monaco (copied there at install by
 * scripts/copy-monaco.mjs); the React wrapper would otherwise fetch it from a CDN.
 */
loader.config({ paths: { vs: '/monaco/vs' } });

/** Monaco's language id for a file name; plain text when it has none. */
export function languageOf(path: string): string {
  const name = path.split('/').pop() ?? path;
  if (name === 'Dockerfile') return 'dockerfile';
  if (name === 'Makefile') return 'plaintext';
  const extension = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
  return languages[extension] ?? 'plaintext';
}

const languages: Readonly<Record<string, string>> = {
  py: 'python',
  rs: 'rust',
  go: 'go',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescript',
  json: 'json',
  java: 'java',
  kt: 'kotlin',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  rb: 'ruby',
  php: 'php',
  sh: 'shell',
  bash: 'shell',
  md: 'markdown',
  yml: 'yaml',
  yaml: 'yaml',
  toml: 'ini',
  ini: 'ini',
  cfg: 'ini',
  html: 'html',
  css: 'css',
  scss: 'scss',
  sql: 'sql',
  xml: 'xml',
  swift: 'swift',
};
