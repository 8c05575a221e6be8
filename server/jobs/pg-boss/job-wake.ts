import { listenOn } from '../../db/pg-listen';
import type { JobsLogger } from '../lease-backend';

/**
 * The PostgreSQL channel a process NOTIFYs after it changes another worker's jobs, with what
 * changed and that worker's id as the payload (`job <id>`, `cancel <id>`). pg-boss 10 only polls:
 * without the notice a job sent from a web process (a submission) waits up to a whole polling
 * interval before its worker fetches it, a wait on every agent's round trip, and a cancel waits
 * for the worker's next look at its running jobs' states (`JobWatch`).
 */
export const jobWakeChannel = 'shadowbox_step_jobs';

/** `job`: a job waits in the worker's queue; `cancel`: one of its running jobs was cancelled. */
export type JobWakeKind = 'job' | 'cancel';

/** Runs one SQL statement with parameters (pg-boss's `getDb().executeSql`). */
export type ExecuteSql = (text: string, values: unknown[]) => Promise<unknown>;

/** Tells the worker `workerId`, wherever it runs, that its jobs changed. */
export async function sendJobWake(
  executeSql: ExecuteSql,
  kind: JobWakeKind,
  workerId: string,
): Promise<void> {
  await executeSql('SELECT pg_notify($1, $2)', [jobWakeChannel, `${kind} ${workerId}`]);
}

export interface JobWakeListener {
  close(): Promise<void>;
}

/**
 * Hears, on one dedicated connection, the notices for `workerId` and calls `wake` with each one's
 * kind. A notice missed while the connection is down costs only latency: the fetch loops still
 * poll, and the job watch still looks.
 * The first connection must work, as for the event listener; later losses reconnect with backoff.
 */
export async function listenForJobWakes(options: {
  readonly url: string;
  readonly workerId: string;
  readonly wake: (kind: JobWakeKind) => void;
  readonly logger: JobsLogger;
}): Promise<JobWakeListener> {
  return listenOn({
    url: options.url,
    channel: jobWakeChannel,
    applicationName: 'shadowbox-job-wake',
    hear: (payload) => {
      if (payload === `job ${options.workerId}`) options.wake('job');
      if (payload === `cancel ${options.workerId}`) options.wake('cancel');
    },
    onError: (error) => options.logger.error('[pg-boss] job wake listener lost', { error }),
    // Whatever changed while no one listened is looked at now rather than at the next poll.
    connected: () => {
      options.wake('job');
      options.wake('cancel');
    },
  });
}
