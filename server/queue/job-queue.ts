import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Db, Prisma } from '../db/client';
import { AppError } from '../errors/app-error';

/**
 * The DB-backed task job queue: one `Job` row per task. A worker claims a due job by taking a
 * lease (lockedBy/lockedUntil) with a compare-and-set `updateMany`, runs one step of the task
 * loop, and ends the step with `finish` (done / park / continue) or `fail`. Every state change
 * by a worker is conditional on `lockedBy = workerId AND state = 'running'`, so a worker that
 * lost its lease (expired and taken over, released at start-up, cancelled) changes nothing.
 *
 * States and what makes a job due (claimable):
 * - `queued`: due at `runAt` (now, a retry's backoff, or a time given to `enqueue`).
 * - `running`: held by `lockedBy` until `lockedUntil`; due again once the lease has expired.
 * - `parked`: the step waits for input; due at `runAt` (the park's deadline) or when woken.
 *   A park without a deadline stores `PARKED_UNTIL_WOKEN` (year 9999) as its `runAt`.
 * - `done`: nothing scheduled; `enqueue` wakes it.
 *
 * Times come from the queue's clock (not the database's), so every process sharing the database
 * must have a roughly synchronised clock: a skew shortens or lengthens other workers' leases.
 */

export type JobState = 'queued' | 'running' | 'parked' | 'done';

/** How a step of the task loop ended. */
export type StepOutcome =
  /** The task reached a state where nothing more is scheduled. */
  | { readonly kind: 'done' }
  /** Waiting for input: run again when woken, or at `until` at the latest (null: only when woken). */
  | { readonly kind: 'park'; readonly until: Date | null }
  /** Run another step right away. */
  | { readonly kind: 'continue' };

/** A job this worker now holds; pass `id` back to renew/finish/fail/release. */
export interface ClaimedJob {
  readonly id: string;
  readonly taskId: string;
  /** Steps that threw since the job's last step that ended normally (not counting this one). */
  readonly attempts: number;
  readonly lastError: string | null;
  readonly lockedUntil: Date;
  /** True when the job was taken over from a worker whose lease had expired. */
  readonly reclaimed: boolean;
}

export interface JobView {
  readonly id: string;
  readonly taskId: string;
  readonly state: JobState;
  /** When the job is (or becomes) due; null for a park without a deadline. */
  readonly runAt: Date | null;
  readonly wakeRequested: boolean;
  readonly attempts: number;
  readonly lockedBy: string | null;
  readonly lockedUntil: Date | null;
  readonly lastError: string | null;
}

/**
 * What `enqueue` did: `created` a job, `woke` a parked/done one (or moved a queued one's `runAt`
 * earlier), asked the running step's worker to re-queue it (`wake-requested`), or nothing
 * (`unchanged`: already queued and due no later).
 */
export type EnqueueResult = 'created' | 'woken' | 'wake-requested' | 'unchanged';

export type FailDisposition = { readonly retryAt: Date } | { readonly giveUp: true };

export interface JobQueueOptions {
  /** The queue's notion of "now" (tests pass a fake one). */
  clock?: () => Date;
}

/** The `runAt` of a parked job without a deadline: never due by time, only by a wake-up. */
export const PARKED_UNTIL_WOKEN = new Date('9999-12-31T00:00:00.000Z');

/** Claim candidates read per round: losers of a race try the next one without a new query. */
const CLAIM_CANDIDATES = 8;
const CLAIM_ROUNDS = 4;
const ENQUEUE_ROUNDS = 10;
const MAX_ERROR_LENGTH = 4000;

const unlocked = { lockedBy: null, lockedUntil: null, wakeRequested: false } as const;

export class JobQueue {
  readonly now: () => Date;

  constructor(
    private readonly db: Db,
    options: JobQueueOptions = {},
  ) {
    this.now = options.clock ?? (() => new Date());
  }

  /**
   * Makes sure the task's job will run: creates it (queued at `runAt`, default now) or wakes it.
   * A wake never postpones: parked/done → queued at min(now, runAt); queued → `runAt` moved to
   * min(its runAt, now, runAt); running → `wakeRequested`, and the worker queues it again when the
   * step ends (see `finish`). Idempotent, and safe when callers race (the unique `taskId`).
   */
  async enqueue(taskId: string, options: { runAt?: Date } = {}): Promise<EnqueueResult> {
    const now = this.now();
    if (options.runAt !== undefined) checkDate(options.runAt, 'runAt');
    const wakeAt = options.runAt !== undefined && options.runAt < now ? options.runAt : now;
    for (let round = 0; round < ENQUEUE_ROUNDS; round++) {
      const job = await this.db.job.findUnique({
        where: { taskId },
        select: { id: true, state: true, runAt: true },
      });
      if (job === null) {
        try {
          await this.db.job.create({
            data: { taskId, state: 'queued', runAt: options.runAt ?? now },
          });
          return 'created';
        } catch (error) {
          const code = prismaCode(error);
          if (code === 'P2002') continue; // Another caller created it first: wake that one.
          if (code === 'P2003') throw new AppError('NOT_FOUND', `No task ${taskId}`);
          throw error;
        }
      }
      if (job.state === 'running') {
        const { count } = await this.db.job.updateMany({
          where: { id: job.id, state: 'running' },
          data: { wakeRequested: true },
        });
        if (count === 1) return 'wake-requested';
      } else if (job.state === 'queued') {
        if (job.runAt <= wakeAt) return 'unchanged';
        const { count } = await this.db.job.updateMany({
          where: { id: job.id, state: 'queued', runAt: { gt: wakeAt } },
          data: { runAt: wakeAt },
        });
        if (count === 1) return 'woken';
      } else {
        // parked or done. A new run of a done job starts with a clean slate of attempts.
        const { count } = await this.db.job.updateMany({
          where: { id: job.id, state: job.state },
          data: { state: 'queued', runAt: wakeAt, attempts: 0, ...unlocked },
        });
        if (count === 1) return 'woken';
      }
      // The job changed between the read and the write: look again.
    }
    throw new AppError('CONFLICT', `Could not enqueue task ${taskId}: its job keeps changing`);
  }

  /**
   * Takes the oldest due job (by `runAt`): queued or parked with `runAt <= now`, or running with
   * an expired lease (its worker died or stalled). The take is a compare-and-set on the condition
   * that made the job eligible, so of two racing workers exactly one gets it. Clears
   * `wakeRequested` (the step about to run sees everything written before the claim); does not
   * count an attempt. `excludeTaskIds`: tasks this worker is still running a step of.
   */
  async claim(
    workerId: string,
    leaseMs: number,
    options: { excludeTaskIds?: readonly string[] } = {},
  ): Promise<ClaimedJob | null> {
    checkWorkerId(workerId);
    checkDuration(leaseMs, 'leaseMs');
    const exclude = options.excludeTaskIds ?? [];
    for (let round = 0; round < CLAIM_ROUNDS; round++) {
      const now = this.now();
      const candidates = await this.db.job.findMany({
        where: {
          ...(exclude.length > 0 ? { taskId: { notIn: [...exclude] } } : {}),
          OR: [
            { state: { in: ['queued', 'parked'] }, runAt: { lte: now } },
            { state: 'running', lockedUntil: { lt: now } },
          ],
        },
        orderBy: [{ runAt: 'asc' }, { createdAt: 'asc' }],
        take: CLAIM_CANDIDATES,
        select: { id: true, taskId: true, state: true, attempts: true, lastError: true },
      });
      if (candidates.length === 0) return null;
      for (const candidate of candidates) {
        const reclaimed = candidate.state === 'running';
        const lockedUntil = new Date(now.getTime() + leaseMs);
        const { count } = await this.db.job.updateMany({
          where: reclaimed
            ? { id: candidate.id, state: 'running', lockedUntil: { lt: now } }
            : { id: candidate.id, state: candidate.state, runAt: { lte: now } },
          data: { state: 'running', lockedBy: workerId, lockedUntil, wakeRequested: false },
        });
        if (count === 1) {
          return {
            id: candidate.id,
            taskId: candidate.taskId,
            attempts: candidate.attempts,
            lastError: candidate.lastError,
            lockedUntil,
            reclaimed,
          };
        }
      }
      // Every candidate went to another worker: read the next ones.
    }
    return null;
  }

  /** Extends the lease to now + leaseMs. False: this worker no longer holds the job. */
  async renew(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    checkDuration(leaseMs, 'leaseMs');
    const { count } = await this.db.job.updateMany({
      where: held(jobId, workerId),
      data: { lockedUntil: new Date(this.now().getTime() + leaseMs) },
    });
    return count === 1;
  }

  /**
   * Ends a step that returned normally and resets `attempts`. `continue` → queued now; `park` →
   * parked until `until`; `done` → done. If a wake-up arrived during the step (`wakeRequested`),
   * a park or a done becomes queued now instead: a wake-up is never lost. False: this worker no
   * longer holds the job (nothing changed).
   */
  async finish(jobId: string, workerId: string, outcome: StepOutcome): Promise<boolean> {
    const requeue = { state: 'queued', runAt: this.now(), attempts: 0, ...unlocked };
    if (outcome.kind === 'continue') return this.update(held(jobId, workerId), requeue);
    let settled: Prisma.JobUpdateManyMutationInput;
    switch (outcome.kind) {
      case 'park':
        if (outcome.until !== null) checkDate(outcome.until, 'until');
        settled = { state: 'parked', runAt: outcome.until ?? PARKED_UNTIL_WOKEN };
        break;
      case 'done':
        settled = { state: 'done' };
        break;
      default:
        throw new AppError('INVALID_ARGUMENT', `Unknown step outcome ${JSON.stringify(outcome)}`);
    }
    // Only the holder clears wakeRequested, others only set it: if the first update misses
    // because the flag was set, the second one matches (unless the lease is gone).
    return (
      (await this.update(
        { ...held(jobId, workerId), wakeRequested: false },
        { ...settled, attempts: 0, ...unlocked },
      )) || (await this.update({ ...held(jobId, workerId), wakeRequested: true }, requeue))
    );
  }

  /**
   * Ends a step that threw: counts an attempt, records the error, then queues the job at
   * `retryAt` or (`giveUp`) marks it done. A wake-up that arrived during the step is dropped (the
   * retry sees the new input anyway). False: this worker no longer holds the job.
   */
  async fail(
    jobId: string,
    workerId: string,
    error: unknown,
    disposition: FailDisposition,
  ): Promise<boolean> {
    if ('retryAt' in disposition) checkDate(disposition.retryAt, 'retryAt');
    return this.update(held(jobId, workerId), {
      ...('retryAt' in disposition
        ? { state: 'queued', runAt: disposition.retryAt }
        : { state: 'done' }),
      attempts: { increment: 1 },
      lastError: describeError(error),
      ...unlocked,
    });
  }

  /**
   * Gives a held job back without counting an attempt: queued, due now (a step interrupted by
   * shutdown or by an abort). False: this worker no longer holds the job.
   */
  async release(jobId: string, workerId: string): Promise<boolean> {
    return this.update(held(jobId, workerId), { state: 'queued', runAt: this.now(), ...unlocked });
  }

  /**
   * Start-up recovery: every running job whose holder `isAlive` says is gone is queued again, due
   * now, without waiting for its lease to expire (attempts unchanged). Pass `isLocalWorkerAlive`.
   * Returns the released jobs' task ids.
   */
  async releaseDeadWorkers(isAlive: (workerId: string) => boolean): Promise<string[]> {
    const running = await this.db.job.findMany({
      where: { state: 'running', lockedBy: { not: null } },
      select: { id: true, taskId: true, lockedBy: true },
    });
    const alive = new Map<string, boolean>();
    const released: string[] = [];
    for (const job of running) {
      const holder = job.lockedBy ?? '';
      if (!alive.has(holder)) alive.set(holder, isAlive(holder));
      if (alive.get(holder) === true) continue;
      const { count } = await this.db.job.updateMany({
        where: { id: job.id, state: 'running', lockedBy: holder },
        data: { state: 'queued', runAt: this.now(), ...unlocked },
      });
      if (count === 1) released.push(job.taskId);
    }
    return released;
  }

  /**
   * Marks the task's job done and drops its lease, so nothing more is scheduled and a worker
   * still running a step loses the lease (its next renewal fails and aborts the step; its finish
   * changes nothing). A later `enqueue` would wake it. False: the task has no job.
   */
  async cancel(taskId: string): Promise<boolean> {
    const { count } = await this.db.job.updateMany({
      where: { taskId },
      data: { state: 'done', ...unlocked },
    });
    return count === 1;
  }

  /** The task's job, or null. */
  async get(taskId: string): Promise<JobView | null> {
    const job = await this.db.job.findUnique({
      where: { taskId },
      select: {
        id: true,
        taskId: true,
        state: true,
        runAt: true,
        wakeRequested: true,
        attempts: true,
        lockedBy: true,
        lockedUntil: true,
        lastError: true,
      },
    });
    if (job === null) return null;
    return {
      ...job,
      state: job.state as JobState,
      runAt: job.runAt.getTime() === PARKED_UNTIL_WOKEN.getTime() ? null : job.runAt,
    };
  }

  private async update(
    where: Prisma.JobWhereInput,
    data: Prisma.JobUpdateManyMutationInput,
  ): Promise<boolean> {
    const { count } = await this.db.job.updateMany({ where, data });
    return count === 1;
  }
}

function held(jobId: string, workerId: string): Prisma.JobWhereInput {
  return { id: jobId, state: 'running', lockedBy: workerId };
}

/** `${hostname}:${pid}:${random}`: unique per runner, and tells `isLocalWorkerAlive` its process. */
export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function parseWorkerId(
  workerId: string,
): { hostname: string; pid: number; nonce: string } | null {
  const match = /^(.+):(\d+):([^:]+)$/.exec(workerId);
  if (match === null) return null;
  const [, hostname = '', pid = '', nonce = ''] = match;
  const parsed = Number(pid);
  return Number.isSafeInteger(parsed) && parsed > 0 ? { hostname, pid: parsed, nonce } : null;
}

/**
 * False only when the worker ran on this host and its process is gone. Workers of other hosts
 * (and ids this cannot parse) count as alive: their leases expire instead. A reused pid makes a
 * dead worker look alive, which is safe (the lease still expires).
 */
export function isLocalWorkerAlive(workerId: string): boolean {
  const parsed = parseWorkerId(workerId);
  if (parsed === null || parsed.hostname !== os.hostname()) return true;
  if (parsed.pid === process.pid) return true;
  try {
    process.kill(parsed.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * The text stored as the job's `lastError`, for operators: name, message and the first stack
 * frames, bounded. It is never shown as it is: a task's stored `error` is made readable (one line,
 * no frames, no paths into the server's code) where it is recorded, in `abandonTask`.
 */
export function describeError(error: unknown): string {
  let text: string;
  if (error instanceof Error) {
    const frames = (error.stack ?? '')
      .split('\n')
      .filter((line) => line.startsWith('    at '))
      .slice(0, 12);
    text = [`${error.name}: ${error.message}`, ...frames].join('\n');
  } else if (typeof error === 'string') {
    text = error;
  } else {
    try {
      // undefined for undefined, functions and symbols, whatever the declared type says.
      const json = JSON.stringify(error) as string | undefined;
      text = json ?? String(error);
    } catch {
      text = String(error);
    }
  }
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

function checkWorkerId(workerId: string): void {
  if (workerId === '') throw new AppError('INVALID_ARGUMENT', 'workerId must not be empty');
}

function checkDuration(ms: number, name: string): void {
  if (!Number.isSafeInteger(ms) || ms <= 0) {
    throw new AppError('INVALID_ARGUMENT', `${name} must be a whole number of ms > 0, got ${ms}`);
  }
}

function checkDate(date: Date, name: string): void {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new AppError('INVALID_ARGUMENT', `${name} must be a valid Date`);
  }
}

function prismaCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
