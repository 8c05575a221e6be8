import { isTrackedEnvelope, tracked, type TrackedEnvelope } from '@trpc/server';
import { z } from 'zod';

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

const trackedEnvelopeSchema = z.custom<TrackedEnvelope<unknown>>(isTrackedEnvelope);

/**
 * `.output()` of a subscription sees the async iterable itself, so this schema checks each
 * `tracked(id, value)` it yields instead (the pattern of tRPC's subscription docs). Ending the
 * returned generator ends the source, so a client that goes away releases the service's stream.
 */
export function zTrackedIterable<Out, In>(itemSchema: z.ZodType<Out, In>) {
  return z
    .custom<AsyncIterable<TrackedEnvelope<In>>>(isAsyncIterable)
    .transform(async function* (iterable): AsyncGenerator<TrackedEnvelope<Out>, void> {
      const iterator = iterable[Symbol.asyncIterator]();
      try {
        for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
          const [id, value] = trackedEnvelopeSchema.parse(next.value);
          yield tracked(id, await itemSchema.parseAsync(value));
        }
      } finally {
        await iterator.return?.();
      }
    });
}

/** The same for a plain (untracked) stream. */
export function zIterable<Out, In>(itemSchema: z.ZodType<Out, In>) {
  return z
    .custom<AsyncIterable<In>>(isAsyncIterable)
    .transform(async function* (iterable): AsyncGenerator<Out, void> {
      const iterator = iterable[Symbol.asyncIterator]();
      try {
        for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
          yield await itemSchema.parseAsync(next.value);
        }
      } finally {
        await iterator.return?.();
      }
    });
}
