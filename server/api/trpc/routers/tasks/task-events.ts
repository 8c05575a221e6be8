import { tracked } from '@trpc/server';
import type { StoredEvent } from '../../../../db/event-store';
import type { TaskEvent } from '../../../../engine/loop';
import { streamProcedure } from '../../trpc';
import { eventsInputSchema } from '../../input-schemas';
import { timelineEventSchema } from '../../view-schemas';
import { zTrackedIterable } from '../../z-async-iterable';

/**
 * A task's events from the start (or after `lastEventId`, which the SSE link sends when it
 * reconnects), then live ones. The service subscribes before it reads the backlog and never
 * repeats or skips a seq, so a reload or a server restart continues without gaps.
 */
export const taskEvents = streamProcedure
  .input(eventsInputSchema)
  .output(zTrackedIterable(timelineEventSchema))
  .subscription(async ({ ctx, input, signal }) => {
    // An unknown task is refused before the stream starts, not inside it.
    await ctx.tasks.getTask(input.taskId, ctx.actor);
    const afterSeq = input.lastEventId == null ? 0 : Number(input.lastEventId);
    const stop = signal ?? new AbortController().signal;
    return timeline(ctx.tasks.events(input.taskId, afterSeq, stop, ctx.actor));
  });

async function* timeline(events: AsyncIterable<StoredEvent>) {
  for await (const stored of events) {
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
