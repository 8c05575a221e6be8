import { parseTaskId } from '../http/schemas';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';
import { parseAfterSeq } from './query';
import { defaultHeartbeatMs, eventStreamResponse } from './sse';

/**
 * `GET /api/v1/tasks/{id}/events`: Server-Sent Events after `Last-Event-ID` (or `?after=N`), then
 * live ones until the client disconnects.
 */
export const handleTaskEvents = restHandler<TaskParams>(async (request, deps, params) => {
  const { tasks } = deps.runtime;
  const actor = await authenticate(request, deps.runtime);
  const id = parseTaskId(params.id);
  const afterSeq = parseAfterSeq(request);
  // An unknown task is a 404 now, not an error event inside a 200 stream.
  await tasks.getTask(id, actor);
  return eventStreamResponse((signal) => tasks.events(id, afterSeq, signal, actor), {
    signal: request.signal,
    heartbeatMs: deps.sseHeartbeatMs ?? defaultHeartbeatMs,
  });
});
