import { readSse } from '../../server/test-support/sse';

/** Opens an SSE stream and calls `onEvent` with each event's data (`{ seq, type, … }`). */
export async function createEventStream(
  url: string,
  onEvent: (event: { seq: number; type: string }) => void,
): Promise<{ close(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  if (!response.ok || response.body === null) throw new Error(`SSE ${url}: ${response.status}`);
  const body = response.body;
  void (async () => {
    for await (const message of readSse(body, controller.signal)) {
      onEvent(JSON.parse(message.data) as { seq: number; type: string });
    }
  })().catch(() => undefined);
  return { close: () => controller.abort() };
}
