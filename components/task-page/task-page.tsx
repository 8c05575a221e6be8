'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { HypothesisAuthor } from '../author/hypothesis-author';
import { CompareMatrix } from '../compare/compare-matrix';
import { fixTestsOf } from '../review/fix-tests';
import { ReviewPanel } from '../review/review-panel';
import { useTRPC } from '../trpc/client';
import type { Viewer } from '../review/review-state';
import type {
  DiffView,
  DraftView,
  TaskEvent,
  TaskStatus,
  TaskView,
  ThreadList,
  TimelineItem,
} from '../trpc/router-types';
import { useTrailingThrottle } from '../use-throttled';
import { HypothesesTable } from './hypotheses-table';
import { InterdiffView } from './interdiff-view';
import { PartialFixExits } from './partial-fix-exits';
import { PlanSection } from './plan-section';
import { newestSpend } from './spend';
import { taskActions } from './task-actions';
import { TaskHeader } from './task-header';
import { TaskTabList, TaskTabPanel } from './task-tab-list';
import { Timeline } from './timeline';
import { useTaskTab } from './use-task-tab';
import { useTaskTimeline } from './use-task-timeline';

const reviewStatuses: ReadonlySet<TaskStatus> = new Set([
  'awaiting_review',
  'approved',
  'rejected',
]);

/**
 * Events that only carry progress: the stored view does not change with them. Every other event
 * refetches the task (throttled), which is how the plan's gate evidence, the spend and the
 * reviewer model's comments follow `gates.finished`, `milestone.*`, `fixer.spent` and
 * `review.commented`.
 */
const progressOnly: ReadonlySet<TaskEvent['type']> = new Set([
  'run.output',
  'intake.progress',
  'intake.git.progress',
]);

/**
 * Events after which the review conversation is read again: threads opened, answered, resolved,
 * moved onto a new diff (`review.ready`) or outdated; drafts sent with a review.
 */
const conversationEvents: ReadonlySet<TaskEvent['type']> = new Set([
  'review.ready',
  'review.submitted',
  'review.thread',
  'review.dismissed',
  'task.changes_requested',
  'task.approved',
  'task.rejected',
  'task.reopened',
  'iteration.finished',
]);

/**
 * `/coding/[id]`: the task's title, status and problem, then three panes: the conversation (the
 * live timeline, hand-written hypotheses), the comparison of its hypotheses, and the files
 * changed (the diff up for review, its threads and the verdict).
 */
export function TaskPage({
  initialTask,
  initialDiff,
  initialThreads,
  initialDrafts,
  viewer,
  initialTab,
}: {
  readonly initialTask: TaskView;
  /** The diff under review when the page was rendered, if any. */
  readonly initialDiff: DiffView | null;
  /** The review threads and the person's drafts when the page was rendered (null: not read). */
  readonly initialThreads: ThreadList | null;
  readonly initialDrafts: readonly DraftView[] | null;
  /** Who is signed in (their own threads and requests for changes are theirs to act on). */
  readonly viewer: Viewer | null;
  /** The tab the address names (`?tab=`), if any. */
  readonly initialTab: string | null;
}) {
  const taskId = initialTask.id;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const task = useQuery(trpc.tasks.get.queryOptions({ taskId }, { initialData: initialTask })).data;
  const refresh = useTrailingThrottle(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ taskId }) });
  }, 300);
  const refreshConversation = useTrailingThrottle(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.reviews.pathKey() });
  }, 300);
  const onEvent = useCallback(
    (item: TimelineItem) => {
      if (!progressOnly.has(item.event.type)) refresh();
      if (conversationEvents.has(item.event.type)) refreshConversation();
    },
    [refresh, refreshConversation],
  );
  const { timeline, connection, connectionError } = useTaskTimeline(taskId, onEvent);

  // The stream is newer than the stored view once it has caught up with it.
  const status =
    timeline.status !== null && timeline.lastSeq >= task.lastEventId
      ? timeline.status
      : task.status;
  const latestSha256 = timeline.review?.diffSha256 ?? task.diffSha256;
  // Whether the newest review is a partial fix: the stream's word, else the stored one.
  const partial = timeline.review === null ? task.reviewPartial : timeline.review.partial === true;
  const stillFailing = partial ? (timeline.review?.stillFailing ?? task.stillFailing) : null;
  const spend = newestSpend(task.spend, timeline.spend);
  // Until the stream has replayed the first event, the timeline would only say "waiting".
  const replaying = timeline.lastSeq === 0 && task.lastEventId > 0;
  // What this person may do now: the server's `can`, at the live status.
  const actions = taskActions(task.can, task.status, status);

  // A page opened on a verdict to give or given reads the files first; one still at work, its
  // timeline (a task between iterations may hold a diff that is not up for review).
  const [tab, selectTab] = useTaskTab(
    initialTab,
    latestSha256 !== null && reviewStatuses.has(task.status),
  );
  const hypotheses = timeline.iterations.reduce(
    (n, iteration) => n + iteration.hypotheses.length,
    0,
  );

  return (
    <div className="task-page" data-tab={tab}>
      <TaskHeader
        task={task}
        status={status}
        spend={spend}
        connection={connection}
        connectionError={connectionError}
        actions={actions}
      />
      <PartialFixExits task={task} status={status} />
      <TaskTabList
        selected={tab}
        onSelect={selectTab}
        notes={{
          compare: hypotheses === 0 ? undefined : hypotheses,
          files: latestSha256 === null ? undefined : 'up for review',
        }}
      />
      <TaskTabPanel tab="conversation" selected={tab}>
        <PlanSection plan={task.plan} />
        <Timeline timeline={timeline} task={task} replaying={replaying} />
        <HypothesesTable
          iterations={timeline.iterations}
          task={task}
          defaultMode={timeline.workspace?.mode ?? null}
          replaying={replaying}
        />
        <HypothesisAuthor taskId={taskId} canSubmit={actions.submit} />
      </TaskTabPanel>
      <TaskTabPanel tab="compare" selected={tab}>
        <CompareMatrix
          taskId={taskId}
          iterations={task.iterations.length}
          version={task.lastEventId}
        />
        <InterdiffView task={task} />
      </TaskTabPanel>
      <TaskTabPanel tab="files" selected={tab}>
        {latestSha256 === null ? (
          <p>No diff is up for review yet: the winner of an iteration is put up here.</p>
        ) : (
          <ReviewPanel
            taskId={taskId}
            status={status}
            latestSha256={latestSha256}
            initialDiff={initialDiff}
            initialThreads={initialThreads}
            initialDrafts={initialDrafts}
            reviewComments={task.reviewComments}
            fixTests={fixTestsOf(task.iterations)}
            stillFailing={stillFailing}
            actions={actions}
            canResolveAny={task.can.review}
            decision={task.decision}
            review={task.review}
            viewer={viewer}
            canPush={task.can.push && status === 'approved'}
          />
        )}
      </TaskTabPanel>
    </div>
  );
}
