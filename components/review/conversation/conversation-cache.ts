'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '../../trpc/client';
import type { DraftView, ThreadList, ThreadView } from '../../trpc/router-types';

/**
 * What a thread or draft action does to the page's copy of the conversation once the server has
 * answered: the changed item goes in at once, then everything the task shows about its review is
 * refetched (counts, the review summary, other people's changes).
 */
export function useConversationCache(taskId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const draftsKey = trpc.reviews.drafts.queryKey({ taskId });
    const threadsKey = trpc.reviews.threads.queryKey({ taskId });
    const refresh = (): void => {
      void queryClient.invalidateQueries({ queryKey: trpc.reviews.pathKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ taskId }) });
    };
    return {
      refresh,
      putDraft(draft: DraftView): void {
        queryClient.setQueryData(draftsKey, (old: readonly DraftView[] | undefined) =>
          old === undefined
            ? [draft]
            : old.some((d) => d.id === draft.id)
              ? old.map((d) => (d.id === draft.id ? draft : d))
              : [...old, draft],
        );
        refresh();
      },
      dropDraft(draftId: string): void {
        queryClient.setQueryData(draftsKey, (old: readonly DraftView[] | undefined) =>
          old?.filter((d) => d.id !== draftId),
        );
        refresh();
      },
      putThread(thread: ThreadView): void {
        queryClient.setQueryData(threadsKey, (old: ThreadList | undefined) =>
          old === undefined
            ? old
            : { ...old, threads: old.threads.map((t) => (t.id === thread.id ? thread : t)) },
        );
        refresh();
      },
    };
  }, [trpc, queryClient, taskId]);
}
