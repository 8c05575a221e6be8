import type { WorkerIdentity, WorkerRegistry } from './worker-registry';

export interface WorkerMonitorOptions {
  readonly registry: WorkerRegistry;
  readonly identity: WorkerIdentity;
  /** How often this worker beats and looks at the others. */
  readonly heartbeatMs: number;
  /** A worker whose last beat is older than this is dead (a few missed beats). */
  readonly expiryMs: number;
  /** Steps running here now, written with each beat (placement reads it). */
  running(): number;
  /**
   * This worker was marked stopped while it was still running (a stall longer than the expiry):
   * its tasks have moved. It should abort what it still runs; it then registers again.
   */
  onDeclaredDead(): void;
  /** Moves the tasks of stopped workers and sends their jobs on (see `TaskHandover`). */
  reconcile(): Promise<void>;
  readonly logger: { error(message: string, context: Record<string, unknown>): void };
}

/**
 * A worker's heartbeat and its watch over the others: every `heartbeatMs` it records its beat and
 * running count, marks workers whose beat expired as stopped (one monitor wins each), and
 * reconciles, which moves their tasks to live workers. Every worker runs one, so takeover needs
 * any one of them alive.
 */
export class WorkerMonitor {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  private stopped = true;

  constructor(private readonly options: WorkerMonitorOptions) {}

  /**
   * Registers the worker (live from now) and runs a first round before it returns, so that a
   * started worker has adopted the tasks left without one (and nothing adopts them later under a
   * caller that has just placed one); then beats until `stop()`.
   */
  async start(): Promise<void> {
    await this.options.registry.register(this.options.identity);
    this.stopped = false;
    this.ticking = this.tick();
    await this.ticking;
    this.ticking = null;
    if (!this.isStopped()) this.schedule(this.options.heartbeatMs);
  }

  // A method, not the field: `stop()` may have run while the first round awaited.
  private isStopped(): boolean {
    return this.stopped;
  }

  /** Stops beating (the caller then marks the worker stopped, or lets it expire). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
  }

  /** One round: beat, expire the dead, reconcile. Never throws. */
  async tick(): Promise<void> {
    const { registry, identity, expiryMs, logger } = this.options;
    try {
      if (!(await registry.beat(identity.id, this.options.running()))) {
        logger.error('[workers] this worker was declared dead; its tasks moved; rejoining', {
          workerId: identity.id,
        });
        this.options.onDeclaredDead();
        await registry.register(identity);
      }
      await registry.expire(expiryMs);
      await this.options.reconcile();
    } catch (error) {
      logger.error('[workers] monitor round failed', { workerId: identity.id, error });
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
        if (!this.stopped) this.schedule(this.options.heartbeatMs);
      });
    }, delayMs);
  }
}
