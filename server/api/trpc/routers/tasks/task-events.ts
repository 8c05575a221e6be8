import { tracked } from '@trpc/server';
import type { StoredEvent } from '../../../../db/event-store';
import type { TaskEvent } from '../../../../engine/loop';
import type { TaskServiceApi } from '../../../../tasks/task-api';
import { publicProcedure } from '../../trpc';
import { eventsInputSchema } from '../../input-schemas';
import { timelineEventSchema } from '../../view-schemas';
import { zTrackedIterable } from '../../z-async-iterable';

/**
 * A task's events from the start (or after `lastEventId`, which the SSE link sends when it
 * reconnects), then live ones. The service subscribes before it reads the backlog and never
 * repeats or skips a seq, so a reload or a server restart continues without gaps.
 */
export const taskEvents = publicProcedure
  .input(eventsInputSchema)
  .output(zTrackedIterable(timelineEventSchema))
  .subscription(async ({ ctx, input, signal }) => {
    // An unknown task is refused before the stream starts, not inside it.
    await ctx.tasks.getTask(input.taskId);
    const afterSeq = input.lastEventId == null ? 0 : Number(input.lastEventId);
    return timeline(ctx.tasks, input.taskId, afterSeq, signal ?? new AbortController().signal);
  });

async function* timeline(
  tasks: TaskServiceApi,
  taskId: string,
  afterSeq: number,
  signal: AbortSignal,
) {
  for await (const stored of tasks.events(taskId, afterSeq, signal)) {
    yield tracked(String(stored.seq), toTimelineEvent(stored));
  }
}

function toTimelineEvent(stored: StoredEvent) {
  const payload =
    typeof stored.payload === 'object' && stored.payload !== null && !Array.isArray(stored.payload)
      ? stored.payload
      : {};
  // The log stores each TaskEvent without its type, which is the row's `type`.
  const event = { ...payload, type: stored.type } as unknown as TaskEvent;
  return { seq: stored.seq, createdAt: stored.createdAt.toISOString(), event };
}
