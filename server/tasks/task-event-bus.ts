import { EventEmitter } from 'node:events';

/**
 * In-process notifications that a task has new persisted events. It carries no event data: a
 * listener reads the database from the last sequence number it saw, so a missed or coalesced
 * notification can delay an event but never lose or reorder one.
 */
export class TaskEventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open SSE stream; hundreds of viewers of one task are expected.
    this.emitter.setMaxListeners(0);
  }

  publish(taskId: string, seq: number): void {
    this.emitter.emit(`task:${taskId}`, seq);
    this.emitter.emit('any', taskId, seq);
  }

  subscribe(taskId: string, listener: (seq: number) => void): () => void {
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
