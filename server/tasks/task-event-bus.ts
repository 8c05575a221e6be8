import { EventEmitter } from 'node:events';
import type { StoredEvent } from '../db/event-store';

/**
 * In-process delivery of events just committed. Listeners may see them out of order or (another
 * process's events) not at all: the database stays the source of truth, and a reader that sees a
 * gap in the sequence numbers reads the missing events from it.
 */
export class TaskEventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open SSE stream; hundreds of viewers of one task are expected.
    this.emitter.setMaxListeners(0);
  }

  publish(taskId: string, event: StoredEvent): void {
    this.emitter.emit(`task:${taskId}`, event);
    this.emitter.emit('any', taskId, event.seq);
  }

  subscribe(taskId: string, listener: (event: StoredEvent) => void): () => void {
    const name = `task:${taskId}`;
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  /** Every task's events (the task list). */
  subscribeAll(listener: (taskId: string, seq: number) => void): () => void {
    this.emitter.on('any', listener);
    return () => this.emitter.off('any', listener);
  }
}
