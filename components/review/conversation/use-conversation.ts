'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../trpc/client';
import type { DraftView, ThreadList, ThreadView } from '../../trpc/router-types';

const noThreads: readonly ThreadView[] = [];
const noDrafts: readonly DraftView[] = [];

/**
 * The task's review threads (everyone's) and the person's own drafts, kept fresh by the page's
 * event stream (review events invalidate them). Drafts are asked for only when the person may
 * comment (the server refuses others).
 */
export function useConversation(
  taskId: string,
  options: {
    readonly canComment: boolean;
    readonly initialThreads: ThreadList | null;
    readonly initialDrafts: readonly DraftView[] | null;
  },
) {
  const trpc = useTRPC();
  const threads = useQuery(
    trpc.reviews.threads.queryOptions(
      { taskId },
      options.initialThreads === null ? {} : { initialData: options.initialThreads },
    ),
  );
  const drafts = useQuery(
    trpc.reviews.drafts.queryOptions(
      { taskId },
      {
        enabled: options.canComment,
        ...(options.initialDrafts === null ? {} : { initialData: options.initialDrafts }),
      },
    ),
  );
  return {
    threads: threads.data?.threads ?? noThreads,
    drafts: options.canComment ? (drafts.data ?? noDrafts) : noDrafts,
    error: threads.error ?? drafts.error,
  };
}
