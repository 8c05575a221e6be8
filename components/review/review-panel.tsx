'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { useTRPC } from '../trpc/client';
import type {
  DiffView,
  DraftView,
  ReviewSummary,
  TaskStatus,
  ThreadList,
  ThreadView,
} from '../trpc/router-types';
import { ConversationView } from './conversation/conversation-view';
import type { ThreadRights } from './conversation/thread-card';
import { useConversation } from './conversation/use-conversation';
import type { Decision } from './decision';
import { DiffViewer } from './diff-viewer';
import { FileDiffSection } from './file-diff-section';
import { FileTreeNav } from './file-tree-nav';
import type { FixTests } from './fix-tests';
import { FixTestsSummary } from './fix-tests-summary';
import { FlagsBanner } from './flags-banner';
import { ModelComments } from './model-comments';
import { commentsOn, type ReviewComment } from './model-review';
import { PartialBanner } from './partial-banner';
import { PushForm } from './push-form';
import { splitPatch, type PatchFile } from './patch-files';
import { ReviewBar, type ReviewActions } from './review-bar';
import type { Viewer } from './review-state';

type DiffMode = 'files' | 'overview';

/**
 * The diff under review and its conversation. The diff is loaded once and kept: the hash a
 * verdict (and every draft) is bound to is the hash of what the reviewer is looking at, so a newer
 * diff replaces it only when the reviewer asks (or after the server refused a verdict on the old
 * one). Two views of it: the files with their line comments and threads (windowed, for long
 * diffs), and diff2html's overview (side by side or line by line).
 */
export function ReviewPanel({
  taskId,
  status,
  latestSha256,
  initialDiff,
  initialThreads,
  initialDrafts,
  reviewComments,
  fixTests,
  stillFailing,
  actions,
  canResolveAny,
  decision,
  review,
  viewer,
  canPush,
}: {
  readonly taskId: string;
  readonly status: TaskStatus;
  /** The newest diff the task has announced. */
  readonly latestSha256: string | null;
  readonly initialDiff: DiffView | null;
  readonly initialThreads: ThreadList | null;
  readonly initialDrafts: readonly DraftView[] | null;
  /** The reviewer model's comments on any of the task's diffs; those on the shown one are shown. */
  readonly reviewComments: readonly ReviewComment[];
  /** What the winners did to the tests, by id; null when they were not judged by id. */
  readonly fixTests: FixTests | null;
  /** The tests a partial fix leaves failing; null for a full fix. */
  readonly stillFailing: readonly string[] | null;
  readonly actions: ReviewActions;
  /** A reviewer: resolves and reopens any thread (others only those they opened). */
  readonly canResolveAny: boolean;
  readonly decision: Decision | null;
  readonly review: ReviewSummary;
  readonly viewer: Viewer | null;
  /** The approved change may be pushed to a configured remote by this person. */
  readonly canPush: boolean;
}) {
  const trpc = useTRPC();
  const diff = useQuery(
    trpc.tasks.diff.queryOptions(
      { taskId },
      {
        staleTime: Infinity,
        refetchOnMount: false,
        ...(initialDiff === null ? {} : { initialData: initialDiff }),
      },
    ),
  );
  const conversation = useConversation(taskId, {
    canComment: actions.comment,
    initialThreads,
    initialDrafts,
  });
  const [mode, setMode] = useState<DiffMode>('files');
  const [editing, setEditing] = useState<PatchFile | null>(null);
  const reload = (): void => {
    setEditing(null);
    void diff.refetch();
  };
  const shown = diff.data?.sha256 ?? null;
  const patchFiles = useMemo(() => splitPatch(diff.data?.diff ?? ''), [diff.data?.diff]);
  const counts = useMemo(
    () => countsOn(shown, conversation.threads, conversation.drafts),
    [shown, conversation.threads, conversation.drafts],
  );
  const rights = useMemo<ThreadRights>(
    () => ({
      comment: actions.comment,
      resolve: (thread) => canResolveAny || (viewer !== null && thread.author === viewer.username),
    }),
    [actions.comment, canResolveAny, viewer],
  );

  return (
    <section aria-labelledby="review-heading" className="review">
      <h2 id="review-heading">Review</h2>
      {diff.isPending ? <p>Loading the diff…</p> : null}
      {diff.isError ? (
        <p className="form-error" role="alert">
          {errorInfo(diff.error).message}
        </p>
      ) : null}
      {diff.data === undefined ? null : (
        <>
          {latestSha256 !== null && latestSha256 !== diff.data.sha256 ? (
            <p className="notice" role="alert">
              A newer diff is ready for review; the one shown here is no longer current.{' '}
              <button type="button" onClick={reload}>
                Show the new diff
              </button>
            </p>
          ) : null}
          {/* Before the verdict buttons: approving a partial fix is a choice to make knowingly. */}
          {stillFailing === null ? null : <PartialBanner stillFailing={stillFailing} />}
          <ReviewBar
            taskId={taskId}
            sha256={diff.data.sha256}
            status={status}
            actions={actions}
            decision={decision}
            review={review}
            drafts={counts.drafts}
            staleDrafts={counts.staleDrafts}
            openThreads={counts.openThreads}
            viewer={viewer}
            onStale={reload}
          />
          {canPush ? <PushForm taskId={taskId} /> : null}
          <FlagsBanner flags={diff.data.flags} />
          {fixTests === null ? null : <FixTestsSummary tests={fixTests} />}
          <ModelComments comments={commentsOn(reviewComments, diff.data.sha256)} />
          {conversation.error === null ? null : (
            <p className="form-error" role="alert">
              The review threads could not be loaded: {errorInfo(conversation.error).message}
            </p>
          )}
          <fieldset className="layout">
            <legend>Diff view</legend>
            {(
              [
                ['files', 'Files with comments'],
                ['overview', 'Overview (diff2html)'],
              ] as const
            ).map(([value, label]) => (
              <label key={value}>
                <input
                  type="radio"
                  name="diff-mode"
                  value={value}
                  checked={mode === value}
                  onChange={() => setMode(value)}
                />{' '}
                {label}
              </label>
            ))}
          </fieldset>
          {mode === 'files' ? (
            <div className="files-with-tree">
              <FileTreeNav files={patchFiles} />
              <ConversationView
                key={diff.data.sha256}
                taskId={taskId}
                sha256={diff.data.sha256}
                diff={diff.data.diff}
                threads={conversation.threads}
                drafts={conversation.drafts}
                rights={rights}
                commentable={latestSha256 === null || latestSha256 === diff.data.sha256}
                patchFiles={patchFiles}
                onOpenInEditor={setEditing}
              />
            </div>
          ) : (
            <DiffViewer key={diff.data.sha256} diff={diff.data.diff} onOpenInEditor={setEditing} />
          )}
          {editing === null ? null : (
            <FileDiffSection
              key={`${diff.data.sha256}:${editing.index}`}
              taskId={taskId}
              file={editing}
              onClose={() => setEditing(null)}
            />
          )}
        </>
      )}
    </section>
  );
}

/** Drafts and open threads on the diff shown (what the review bar counts). */
function countsOn(
  sha256: string | null,
  threads: readonly ThreadView[],
  drafts: readonly DraftView[],
): { drafts: number; staleDrafts: number; openThreads: number } {
  const onShown = drafts.filter((draft) => draft.diffSha256 === sha256).length;
  return {
    drafts: onShown,
    staleDrafts: drafts.length - onShown,
    openThreads: threads.filter((t) => t.status === 'open' && t.diffSha256 === sha256).length,
  };
}
