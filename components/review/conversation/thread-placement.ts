import { visibleLines } from '@/server/engine/diff';
import type { DraftView, ThreadSide, ThreadView } from '../../trpc/router-types';
import { pathOn, type ReviewFile } from './diff-files';

/** Where the conversation goes in the files view of the diff shown (`sha256`). */
export interface Placement {
  /** Threads on the diff shown, under the line they end at (`placeKey`), in the server's order. */
  readonly threadsAt: ReadonlyMap<string, readonly ThreadView[]>;
  /** The person's new-comment drafts on the diff shown, likewise. */
  readonly draftsAt: ReadonlyMap<string, readonly DraftView[]>;
  /** Every line an open thread on the diff shown is about (`placeKey`s): marked in the gutter. */
  readonly threadLines: ReadonlySet<string>;
  /** Reply drafts, by the thread they answer. */
  readonly replyDrafts: ReadonlyMap<string, readonly DraftView[]>;
  /** Threads whose code is gone from the diff under review: listed apart, with their lines. */
  readonly outdated: readonly ThreadView[];
  /**
   * Open or resolved threads not at a line of the diff shown: they are anchored in a newer diff
   * (the page still shows the one the reviewer loaded), or at lines this one does not show.
   */
  readonly elsewhere: readonly ThreadView[];
  /** New-comment drafts written on another diff (the server refuses to send those) or lines. */
  readonly strayDrafts: readonly DraftView[];
}

/** The key of a line of one side of one file: what threads and drafts hang under. */
export const placeKey = (fileIndex: number, side: ThreadSide, line: number): string =>
  `${fileIndex}:${side}:${line}`;

/**
 * Places threads and drafts at the last line of their range, on the side they name, when the diff
 * shown is the one they are anchored in and shows that line; everything else is listed apart.
 */
export function placeConversation(
  files: readonly ReviewFile[],
  sha256: string,
  threads: readonly ThreadView[],
  drafts: readonly DraftView[],
): Placement {
  const locate = locator(files);
  const threadsAt = new Map<string, ThreadView[]>();
  const draftsAt = new Map<string, DraftView[]>();
  const threadLines = new Set<string>();
  const replyDrafts = new Map<string, DraftView[]>();
  const outdated: ThreadView[] = [];
  const elsewhere: ThreadView[] = [];
  const strayDrafts: DraftView[] = [];
  const add = <T>(map: Map<string, T[]>, key: string, item: T): void => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [item]);
    else list.push(item);
  };

  for (const thread of threads) {
    if (thread.status === 'outdated') {
      outdated.push(thread);
      continue;
    }
    const key =
      thread.diffSha256 === sha256 ? locate(thread.path, thread.side, thread.endLine) : null;
    if (key === null) {
      elsewhere.push(thread);
      continue;
    }
    add(threadsAt, key, thread);
    if (thread.status !== 'open') continue;
    const fileIndex = key.slice(0, key.indexOf(':'));
    for (let line = thread.startLine; line <= thread.endLine; line += 1) {
      threadLines.add(`${fileIndex}:${thread.side}:${line}`);
    }
  }
  for (const draft of drafts) {
    if (draft.threadId !== null) {
      add(replyDrafts, draft.threadId, draft);
      continue;
    }
    const key =
      draft.diffSha256 === sha256 &&
      draft.path !== null &&
      draft.side !== null &&
      draft.endLine !== null
        ? locate(draft.path, draft.side, draft.endLine)
        : null;
    if (key === null) strayDrafts.push(draft);
    else add(draftsAt, key, draft);
  }
  return { threadsAt, draftsAt, threadLines, replyDrafts, outdated, elsewhere, strayDrafts };
}

/** Finds the file showing `path` on `side` and checks the line is shown there. */
function locator(
  files: readonly ReviewFile[],
): (path: string, side: ThreadSide, line: number) => string | null {
  const byPath = new Map<string, ReviewFile>();
  for (const file of files) {
    for (const side of ['new', 'old'] as const) {
      const path = pathOn(file, side);
      if (path !== null && !file.binary) byPath.set(`${side}\0${path}`, file);
    }
  }
  const shown = new Map<string, ReadonlySet<number>>();
  return (path, side, line) => {
    const file = byPath.get(`${side}\0${path}`);
    if (file === undefined) return null;
    const cacheKey = `${file.index}:${side}`;
    let numbers = shown.get(cacheKey);
    if (numbers === undefined) {
      numbers = new Set(visibleLines(file, side).map((visible) => visible.line));
      shown.set(cacheKey, numbers);
    }
    return numbers.has(line) ? placeKey(file.index, side, line) : null;
  };
}
