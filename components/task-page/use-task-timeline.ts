'use client';

import { useSubscription } from '@trpc/tanstack-react-query';
import { useReducer } from 'react';
import { useTRPC } from '../trpc/client';
import type { TimelineItem } from '../trpc/router-types';
import { reduceTimeline } from './timeline-reducer';
import { initialTimeline } from './timeline-state';

/**
 * The task's timeline, built from its event stream. The stream starts at the first event (so a
 * reload rebuilds everything) and, when it reconnects (network, server restart), the SSE link
 * resumes after the last event id it saw; the reducer drops any seq it already has.
 */
export function useTaskTimeline(taskId: string, onEvent: (item: TimelineItem) => void) {
  const trpc = useTRPC();
  const [timeline, dispatch] = useReducer(reduceTimeline, initialTimeline);
  const subscription = useSubscription(
    trpc.tasks.events.subscriptionOptions(
      { taskId },
      {
        onData: (tracked) => {
          dispatch(tracked.data);
          onEvent(tracked.data);
        },
      },
    ),
  );
  return {
    timeline,
    connection: subscription.status,
    connectionError: subscription.error?.message ?? null,
  };
}
