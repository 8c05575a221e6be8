/**
 * A small patch for the conversation's unit tests: calc.py with two hunks (a removed and an added
 * line in each) and a new file, notes.md. (A fixture: the tests import it.)
 */
import type { DraftView, ThreadView } from '../../../trpc/router-types';

export const sha = 'a'.repeat(64);
export const newerSha = 'b'.repeat(64);

export const patch = [
  'From 1234 Mon Sep 17 00:00:00 2001',
  'Subject: [PATCH] true division',
  '',
  '---',
  'diff --git a/calc.py b/calc.py',
  'index 1111111..2222222 100644',
  '--- a/calc.py',
  '+++ b/calc.py',
  '@@ -1,5 +1,5 @@',
  ' """A tiny calculator: the code under test."""',
  '-',
  '+# Calculator functions.',
  ' ',
  ' def add(a, b):',
  '     return a + b',
  '@@ -15,4 +15,4 @@ def multiply(a, b):',
  ' ',
  ' def mean(values):',
  '     """The arithmetic mean of a non-empty list of numbers."""',
  '-    return sum(values) // len(values)',
  '+    return sum(values) / len(values)',
  'diff --git a/notes.md b/notes.md',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/notes.md',
  '@@ -0,0 +1,2 @@',
  '+# Notes',
  '+Division is true division.',
  '-- ',
  '2.39.2',
  '',
].join('\n');

export function thread(overrides: Partial<ThreadView> = {}): ThreadView {
  return {
    id: 'thread1',
    status: 'open',
    path: 'calc.py',
    side: 'new',
    startLine: 3,
    endLine: 5,
    lines: ['', 'def add(a, b):', '    return a + b'],
    diffSha256: sha,
    writtenOn: {
      sha256: sha,
      checkpointSha: 'c'.repeat(40),
      path: 'calc.py',
      startLine: 3,
      endLine: 5,
    },
    outdatedReason: null,
    author: 'alice',
    resolvedBy: null,
    createdAt: '2026-12-01T10:00:00.000Z',
    comments: [
      {
        id: 'comment1',
        author: 'alice',
        authorKind: 'person',
        body: 'Why a blank line here?',
        createdAt: '2026-12-01T10:00:00.000Z',
      },
    ],
    ...overrides,
  };
}

export function draft(overrides: Partial<DraftView> = {}): DraftView {
  return {
    id: 'draft1',
    diffSha256: sha,
    threadId: null,
    path: 'calc.py',
    side: 'new',
    startLine: 17,
    endLine: 18,
    body: 'Say why true division.',
    updatedAt: '2026-12-01T10:05:00.000Z',
    ...overrides,
  };
}
