import type { EvalInstance } from '../eval-instance';
import { summarize, type RunAttempt, type RunFile } from './run-file';

// Runs an eval set's attempts, `parallel` at a time, over a port that makes and awaits the tasks
// (the runtime's in production, fakes in unit tests). The run record is saved after every change,
// so a crash loses nothing: a recorded task is awaited on the next run, never created again.

/** What one finished attempt came to. */
export interface AttemptOutcome {
  readonly resolved: boolean;
  readonly tokens: number;
  readonly costUsd: number;
  readonly durationMs: number;
  readonly iterations: number;
  readonly why: string;
}

export interface EvalAttemptPort {
  /**
   * The attempt's task: the one already made for it in this run (a crash between its creation and
   * the save), else a new one. Refusals (a bad repository, a command the policy refuses) throw.
   */
  start(instance: EvalInstance, attempt: number): Promise<string>;
  /** Waits for the task's end and judges it. */
  finish(instance: EvalInstance, taskId: string): Promise<AttemptOutcome>;
}

export interface RunProgress {
  readonly instancesDone: number;
  readonly instances: number;
  readonly attemptsDone: number;
  readonly attempts: number;
  readonly resolved: number;
  readonly tokens: number;
  readonly costUsd: number;
}

export interface RunSetOptions {
  readonly instances: readonly EvalInstance[];
  /** A new run's record, or the one a crashed run left (same runId, k and instances). */
  readonly run: RunFile;
  readonly parallel: number;
  readonly port: EvalAttemptPort;
  readonly save: (run: RunFile) => Promise<void>;
  readonly progress?: (progress: RunProgress) => void;
  readonly now?: () => Date;
}

/** Runs every attempt not done yet; resolves to the final record (also saved). */
export async function runEvalSet(options: RunSetOptions): Promise<RunFile> {
  const { instances, port } = options;
  const now = options.now ?? (() => new Date());
  const record = structuredClone(options.run);
  for (const instance of instances) {
    if (!record.instances.some((i) => i.instance_id === instance.instance_id)) {
      record.instances.push({ instance_id: instance.instance_id, attempts: [] });
    }
  }
  const slot = (id: string) => {
    const entry = record.instances.find((i) => i.instance_id === id);
    if (entry === undefined) throw new Error(`instance ${id} is not in the run record`);
    return entry;
  };
  const put = (id: string, attempt: RunAttempt): void => {
    const entry = slot(id);
    entry.attempts = [...entry.attempts.filter((a) => a.attempt !== attempt.attempt), attempt].sort(
      (a, b) => a.attempt - b.attempt,
    );
  };

  // Saves one at a time, in order: attempts end concurrently, the file is rewritten whole.
  let saving: Promise<void> = Promise.resolve();
  let last: RunFile = record;
  const save = (): Promise<void> => {
    const snapshot = structuredClone({
      ...record,
      summary: summarize(record),
      updatedAt: now().toISOString(),
    });
    last = snapshot;
    saving = saving.then(() => options.save(snapshot));
    return saving;
  };
  const report = (): void => {
    if (options.progress === undefined) return;
    const summary = summarize(record);
    options.progress({
      instancesDone: record.instances.filter(
        (i) => i.attempts.filter((a) => a.state === 'done').length >= record.k,
      ).length,
      instances: instances.length,
      attemptsDone: summary.attempts,
      attempts: instances.length * record.k,
      resolved: summary.resolved,
      tokens: summary.tokens,
      costUsd: summary.costUsd,
    });
  };

  const pending: { instance: EvalInstance; attempt: number; taskId: string | null }[] = [];
  for (const instance of instances) {
    for (let attempt = 0; attempt < record.k; attempt += 1) {
      const recorded = slot(instance.instance_id).attempts.find((a) => a.attempt === attempt);
      if (recorded?.state === 'done') continue;
      pending.push({ instance, attempt, taskId: recorded?.taskId ?? null });
    }
  }

  const runOne = async (item: (typeof pending)[number]): Promise<void> => {
    const id = item.instance.instance_id;
    const blank = { resolved: false, tokens: 0, costUsd: 0, durationMs: 0, iterations: 0 };
    let taskId = item.taskId;
    if (taskId === null) {
      try {
        taskId = await port.start(item.instance, item.attempt);
      } catch (error) {
        put(id, {
          attempt: item.attempt,
          state: 'done',
          taskId: null,
          ...blank,
          why: `the task could not be created: ${error instanceof Error ? error.message : String(error)}`,
        });
        report();
        await save();
        return;
      }
      put(id, { attempt: item.attempt, state: 'running', taskId, ...blank, why: 'running' });
      await save();
    }
    const outcome = await port.finish(item.instance, taskId);
    put(id, { attempt: item.attempt, state: 'done', taskId, ...outcome });
    report();
    await save();
  };

  // A fault (the database, the disk) stops new attempts; the ones under way finish and are
  // saved, then it is thrown: the record keeps every task, so a rerun picks them up.
  let next = 0;
  const faults: unknown[] = [];
  const worker = async (): Promise<void> => {
    while (faults.length === 0 && next < pending.length) {
      const item = pending[next];
      next += 1;
      if (item === undefined) continue;
      try {
        await runOne(item);
      } catch (error) {
        faults.push(error);
      }
    }
  };
  const workers = Math.max(1, Math.min(options.parallel, pending.length));
  await Promise.all(Array.from({ length: workers }, worker));
  await save();
  if (faults.length > 0) throw faults[0];
  return last;
}

/** The record of a run that has not started: every instance listed, no attempt yet. */
export function newRunFile(
  fields: Omit<RunFile, 'summary' | 'instances' | 'updatedAt'> & {
    readonly instances: readonly EvalInstance[];
  },
): RunFile {
  const base = {
    ...fields,
    updatedAt: fields.startedAt,
    instances: fields.instances.map((i) => ({ instance_id: i.instance_id, attempts: [] })),
  };
  return { ...base, summary: summarize(base) };
}
