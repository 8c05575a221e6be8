/**
 * The engine's ports: everything it needs from the world. One composition root wires real adapters
 * (execa + unshare, overlay shadows, git) and unit tests wire the in-memory fakes.
 */

/** Receives typed events (discriminated by `type`) as they happen. Must not throw. */
export interface EventSink<E extends { readonly type: string }> {
  emit(event: E): void;
}

export const discardEvents: EventSink<{ readonly type: string }> = { emit: () => undefined };

export interface Clock {
  /** Milliseconds on a monotonic clock, for durations. */
  monotonicMs(): number;
  /** Wall-clock time, for timestamps. */
  now(): Date;
}

export const systemClock: Clock = {
  monotonicMs: () => performance.now(),
  now: () => new Date(),
};
