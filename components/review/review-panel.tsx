'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { useTRPC } from '../trpc/client';
import type { DiffView, TaskStatus } from '../trpc/router-types';
import { DiffViewer } from './diff-viewer';
import { FileDiffSection } from './file-diff-section';
import type { FixTests } from './fix-tests';
import { FixTestsSummary } from './fix-tests-summary';
import { FlagsBanner } from './flags-banner';
import { ModelComments } from './model-comments';
import { commentsOn, type ReviewComment } from './model-review';
import { PartialBanner } from './partial-banner';
import type { PatchFile } from './patch-files';
import type { Decision } from './decision';
import { ReviewBar, type ReviewActions } from './review-bar';

/**
 * The diff under review. It is loaded once and kept: the hash a verdict is bound to is the hash
 * of what the reviewer is looking at, so a newer diff replaces it only when the reviewer asks (or
 * after the server refused a verdict on the old one).
 */
export function ReviewPanel({
  taskId,
  status,
  latestSha256,
  initialDiff,
  reviewComments,
  fixTests,
  stillFailing,
  actions,
  decision,
}: {
  readonly taskId: string;
  readonly status: TaskStatus;
  /** The newest diff the task has announced. */
  readonly latestSha256: string | null;
  readonly initialDiff: DiffView | null;
  /** The reviewer model's comments on any of the task's diffs; those on the shown one are shown. */
  readonly reviewComments: readonly ReviewComment[];
  /** What the winners did to the tests, by id; null when they were not judged by id. */
  readonly fixTests: FixTests | null;
  /** The tests a partial fix leaves failing; null for a full fix. */
  readonly stillFailing: readonly string[] | null;
  readonly actions: ReviewActions;
  readonly decision: Decision | null;
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
  const [editing, setEditing] = useState<PatchFile | null>(null);
  const reload = (): void => {
    setEditing(null);
    void diff.refetch();
  };

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
            onStale={reload}
          />
          <FlagsBanner flags={diff.data.flags} />
          {fixTests === null ? null : <FixTestsSummary tests={fixTests} />}
          <ModelComments comments={commentsOn(reviewComments, diff.data.sha256)} />
          <DiffViewer key={diff.data.sha256} diff={diff.data.diff} onOpenInEditor={setEditing} />
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
