import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { browserOrigins } from './auth/browser-origins';
import { createAccounts, loadAuthSecret, loadPerson, type Accounts } from './auth';
import { credentialForSource } from './remotes/remotes';
import { loadSecretBox } from './remotes/secret-box';
import { createDb, type Db } from './db/client';
import { migrateDatabase } from './db/migrate';
import {
  defaultGitUrlPolicy,
  defaultIntakeCaps,
  GitUrlPolicy,
  parseGitAllow,
} from './engine/intake';
import {
  createExternalFixer,
  createGitWorkspaces,
  abandonTask,
  stepTask,
  type LoopDeps,
} from './engine/loop';
import { systemClock } from './engine/ports';
import { buildReviewArtifact } from './engine/review';
import { defaultRunLimits, type RunLimits, type SandboxCapabilities } from './engine/sandbox';
import { createShadowRunner, type ShadowRunner } from './engine/shadow';
import { pruneStaleWorktrees, sourceGitDir, workspaceLayout } from './engine/workspace';
import {
  defaultEgressAllowlist,
  parseEgressAllow,
  readToolConfig,
  type EgressAllowlist,
} from './engine/egress';
import { SetupCache, createTaskSetup } from './engine/setup';

import { checkRole, loadEnv, type Env, type ProcessRole } from './env';
import { createLlmAdapters } from './llm/llm-adapters';
import type { LlmConfig } from './llm/llm-config';
import {
  createTaskJobs,
  describeError,
  listWorkers,
  openSharedStorage,
  type WorkerView,
} from './jobs';
import type { Actor, TaskServiceApi } from './tasks/task-api';
import { TaskEventBus } from './tasks/task-event-bus';
import { PrismaTaskStore } from './tasks/prisma-task-store';
import { TaskService } from './tasks/task-service';
import { ReviewService, type ReviewServiceApi } from './reviews';
import { BatchService, type BatchServiceApi } from './batches';
import { EvalRunService } from './evals/server-runs/eval-run-service';
import { runtimeAttempts } from './evals/run/runtime-attempts';

/** What the transports (REST routes, tRPC, MCP) get from the server process. */
export interface Runtime {
  readonly tasks: TaskServiceApi;
  /** The review conversation: threads on the diff, drafts, reviews and their rules. */
  readonly reviews: ReviewServiceApi;
  /** Integration batches: approved tasks of one repository tested and landed together. */
  readonly batches: BatchServiceApi;
  /** Eval runs started from the page (/coding/evals), on this runtime's tasks. */
  readonly evals: EvalRunService;
  /** Resolves a `Authorization: Bearer …` header to a token actor; UNAUTHENTICATED otherwise. */
  authenticate(authorization: string | null): Promise<Actor>;
  /** Sign-in (better-auth), sessions, the set-up link, people's tokens, the audit log. */
  readonly accounts: Accounts;
  /** Where uploads are streamed before the task service takes them. */
  readonly uploadDir: string;
  /** Largest accepted archive upload, in bytes. */
  readonly maxUploadBytes: number;
  /** How this machine isolates runs and which resource caps it enforces (shown on /coding). */
  readonly sandbox: SandboxStatus;
  /** The worker processes and their load (PostgreSQL; none with SQLite's single process). */
  listWorkers(): Promise<WorkerView[]>;
}

export interface SandboxStatus {
  readonly mode: 'overlay' | 'inplace';
  /** Why there is no sandbox: runs go in place (mode inplace) or are refused (overlay). */
  readonly fallbackReason: string | null;
  readonly capabilities: SandboxCapabilities | null;
  /** The caps of a run whose task sets none. */
  readonly defaultLimits: RunLimits;
}

/** The whole of it, for the process that owns it (start-up, shutdown, benchmarks). */
export interface ServerRuntime extends Runtime {
  readonly env: RuntimeEnv;
  readonly db: Db;
  readonly bus: TaskEventBus;
  /**
   * The process's one shadow runner (one probe, one start-up sweep): the task loop runs on it, and
   * so does MCP's `shadow_run`. `close()` waits for its scratch space to be deleted.
   */
  readonly shadows: ShadowRunner;
  readonly role: ProcessRole;
  /** The id this process runs task steps under; null for a web process (it only schedules). */
  readonly workerId: string | null;
  /**
   * Stops taking work, aborts running steps (they resume from their last checkpoint: on the next
   * start, or on another worker) and hands them back, then closes the DB.
   */
  close(): Promise<void>;
}

/** The configuration a runtime needs (`loadEnv()` gives all of it; tests give the first two). */
export type RuntimeEnv = Pick<Env, 'dataDir' | 'database'> &
  Partial<Omit<Env, 'dataDir' | 'database'>>;

export interface RuntimeOptions {
  /** Tasks whose steps run at once in this process (test runs are the expensive part). */
  readonly taskConcurrency?: number;
  /** After an iteration's first hypothesis arrives, how long to wait for more to run with it. */
  readonly gatherMs?: number;
  /** The LLM endpoint; default the environment's (`env.llm`, SHADOWBOX_LLM_*), null for none. */
  readonly llm?: LlmConfig | null;
  /** Overrides `env.role`: `web` only schedules, `worker` and `all` run task steps. */
  readonly role?: ProcessRole;
  /** This process's worker id (default: host:pid:random). */
  readonly workerId?: string;
  /** Overrides `env.workerHeartbeatMs` (PostgreSQL). */
  readonly heartbeatMs?: number;
  /** Overrides `env.workerExpiryMs` (PostgreSQL). */
  readonly workerExpiryMs?: number;
  /** How often an idle worker looks for jobs sent by other processes (PostgreSQL, ≥ 500 ms). */
  readonly jobPollMs?: number;
  /**
   * TEST ONLY: the policy of Git URLs (sources and remotes), for integration tests that serve a
   * forge on loopback. No environment variable reaches it; SHADOWBOX_GIT_ALLOW sets the real one.
   */
  readonly gitPolicy?: GitUrlPolicy;
}

/**
 * Builds the server's runtime: configuration, migrations, the start-up sweep of whatever a crash
 * left (scratch shadows, stale worktrees, jobs held by dead workers), then the job runner, which
 * resumes every task that was running.
 */
export async function createRuntime(
  env: RuntimeEnv,
  options: RuntimeOptions = {},
): Promise<ServerRuntime> {
  const role = options.role ?? env.role ?? 'all';
  checkRole(role, env.database);
  // The database, the auth secret and every worktree live here: nobody else may list or enter it
  // (runs never need to: their set-up reaches the worktrees with the server's rights).
  await mkdir(env.dataDir, { recursive: true, mode: 0o700 });
  await chmod(env.dataDir, 0o700);
  await migrateDatabase(env.database);
  const db = createDb(env);
  const layout = workspaceLayout(env.dataDir);
  const uploadDir = path.join(env.dataDir, 'uploads');
  await mkdir(uploadDir, { recursive: true });

  const bus = new TaskEventBus();
  const shared = await openSharedStorage({ database: env.database, db, bus });
  const store = new PrismaTaskStore(db, bus, shared.notifier);
  const shadows = await createShadowRunner({
    dataDir: env.dataDir,
    mode: env.sandboxMode,
    ...(env.hardMaxRunLimits === undefined ? {} : { hardMaxLimits: env.hardMaxRunLimits }),
    ...(env.runLimits === undefined ? {} : { limits: env.runLimits }),
    ...(env.sandboxReadOnlyPaths === undefined
      ? {}
      : { sandboxReadOnlyPaths: env.sandboxReadOnlyPaths }),
  });
  if (shadows.fallbackReason !== null) {
    console.warn(
      shadows.mode === 'inplace'
        ? `shadowbox: overlay shadows unavailable, running in place: ${shadows.fallbackReason}`
        : `shadowbox: no sandbox on this machine, so no task's code will run (set SHADOWBOX_MODE=inplace to run it without isolation): ${shadows.fallbackReason}`,
    );
  } else if (shadows.capabilities !== null) {
    const { memory, pids, disk, identity, seccomp, proc, notes } = shadows.capabilities;
    console.info(`shadowbox: runs as ${identity} on the host, under a ${seccomp}; ${proc}`);
    console.info(
      `shadowbox: sandbox caps: memory by ${memory}, processes by ${pids}, disk by ${disk}`,
    );
    for (const note of notes) console.warn(`shadowbox: ${note}`);
  }
  const known = await db.task.findMany({ select: { id: true } });
  await pruneStaleWorktrees(layout, new Set(known.map((t) => t.id)));

  // A malformed allowlist refuses to start the server, naming the entry; the defaults (npm's
  // configured registry) are read on the first setup.
  parseEgressAllow(env.egressAllow, { entries: [] });
  // The team's own forges, beyond public https (same grammar; a malformed entry refuses to start).
  const forges = parseGitAllow(env.gitAllow);
  const gitPolicy =
    options.gitPolicy ?? (forges.length === 0 ? defaultGitUrlPolicy : new GitUrlPolicy({ forges }));
  let allowlist: Promise<EgressAllowlist> | undefined;
  const setup = createTaskSetup({
    host: shadows.sandboxHost,
    unavailableReason: shadows.fallbackReason,
    scratchRoot: shadows.scratchRoot,
    removal: shadows.removal,
    cache: new SetupCache(path.join(env.dataDir, 'setup-cache')),
    allowlist: () =>
      (allowlist ??= defaultEgressAllowlist().then((defaults) =>
        parseEgressAllow(env.egressAllow, defaults),
      )),
    toolEnv: async () => (await readToolConfig()).env,
    gitDirOf: (task) => {
      if (task.sourceId === null) throw new Error(`task ${task.id} has no source`);
      return sourceGitDir(layout, task.sourceId);
    },
    ...(env.runLimits === undefined ? {} : { limits: env.runLimits }),
    ...(env.hardMaxRunLimits === undefined ? {} : { hardMaxLimits: env.hardMaxRunLimits }),
  });
  // Seals and opens remotes' credentials: pushes (web) and private forges' clones (workers).
  const secrets = await loadSecretBox(env.dataDir, env.secretsKey);
  const deps: LoopDeps = {
    store,
    workspaces: createGitWorkspaces({
      layout,
      // The same policy as creation: a forge admitted there is cloned here.
      gitPolicy,
      // A team's private forge: cloned with the credential of the remote configured for it.
      credentialFor: (url) => credentialForSource({ db, box: secrets }, url),
      ...(shared.bundles === undefined ? {} : { bundles: shared.bundles }),
    }),
    shadows,
    setup,
    ...(env.setupTimeoutMs === undefined ? {} : { setupTimeoutMs: env.setupTimeoutMs }),
    fixer: createExternalFixer({ gatherMs: options.gatherMs ?? env.hypothesisGatherMs ?? 3000 }),
    clock: systemClock,
    buildReview: buildReviewArtifact,
  };
  // The LLM fixer and reviewer exist only when an endpoint is configured (SHADOWBOX_LLM_*).
  const llmConfig = options.llm === undefined ? (env.llm ?? null) : options.llm;
  const llm = llmConfig === null ? null : createLlmAdapters(llmConfig);
  const reviewer = llm?.reviewer ?? null;
  const loop: LoopDeps = {
    ...deps,
    ...(llm === null ? {} : { fixers: { llm: llm.fixer } }),
    ...(reviewer === null || llmConfig?.reviewerModel == null
      ? {}
      : { reviewer: { name: llmConfig.reviewerModel, review: (i, s) => reviewer.review(i, s) } }),
  };
  const workerExpiryMs = options.workerExpiryMs ?? env.workerExpiryMs;
  const jobs = createTaskJobs({
    database: env.database,
    db,
    role,
    capacity: options.taskConcurrency ?? env.workerCapacity ?? 2,
    workerId: options.workerId,
    heartbeatMs: options.heartbeatMs ?? env.workerHeartbeatMs,
    workerExpiryMs,
    pollMs: options.jobPollMs,
    handler: {
      step: (taskId, signal) => stepTask(loop, taskId, signal),
      onGiveUp: (taskId, error) =>
        abandonTask(loop, taskId, `the task could not go on: ${describeError(error)}`),
    },
  });
  const tasks = new TaskService({
    db,
    store,
    bus,
    layout,
    ...(shared.bundles === undefined ? {} : { bundles: shared.bundles }),
    gitPolicy,
    secrets,
    clock: systemClock,
    llmAvailable: llm !== null,
    ...(llm === null ? {} : { defaultTaskTokenBudget: llm.defaultTaskTokenBudget }),
    maxPendingHypotheses: env.maxPendingHypotheses,
    runLimitCeilings: runLimitCeilingsOf(env),
    requireSecondReviewer: env.requireSecondReviewer ?? false,
    maxReviewRounds: env.maxReviewRounds,
    scheduler: jobs,
  });
  const reviews = new ReviewService({
    db,
    store,
    clock: systemClock,
    scheduler: jobs,
    requireSecondReviewer: env.requireSecondReviewer ?? false,
    maxReviewRounds: env.maxReviewRounds,
  });
  const batches = new BatchService({
    db,
    layout,
    ...(shared.bundles === undefined ? {} : { bundles: shared.bundles }),
    // A web process of a scale-out deployment has no sandbox of its own to test a batch in.
    shadows: role === 'web' ? null : shadows,
    gitPolicy,
    secrets,
    clock: systemClock,
  });
  // One process holds every batch test with SQLite: one still marked running was cut short.
  if (env.database.provider === 'sqlite') await batches.recover();
  // Eval attempts are tasks like any other; a run started here resumes in getRuntime().
  const evals = new EvalRunService({
    dataDir: env.dataDir,
    model: llmConfig?.model ?? null,
    attempts: (o) =>
      runtimeAttempts({ ...o, runtime: { tasks, db, uploadDir }, gitPolicy, cwd: '/' }),
    loadOwner: async (ownerId) => {
      const person = await loadPerson(db, ownerId);
      return person === null ? null : { kind: 'user', person };
    },
    log: (line) => console.warn(line),
  });
  const accounts = await createAccountsOf(env, db);
  if (role !== 'worker') await accounts.announceSetupLink((line) => console.info(line));
  await jobs.start();

  return {
    tasks,
    reviews,
    batches,
    evals,
    authenticate: (authorization) => accounts.authenticate(authorization),
    accounts,
    uploadDir,
    maxUploadBytes: defaultIntakeCaps.maxTotalBytes,
    sandbox: {
      mode: shadows.mode,
      fallbackReason: shadows.fallbackReason,
      capabilities: shadows.capabilities,
      defaultLimits: { ...defaultRunLimits, ...env.runLimits },
    },
    listWorkers: async () =>
      env.database.provider === 'sqlite'
        ? []
        : listWorkers({ db, expiryMs: workerExpiryMs ?? 15_000 }),
    env,
    db,
    bus,
    shadows,
    role,
    workerId: jobs.workerId,
    async close() {
      await evals.close();
      await batches.close();
      await jobs.stop();
      await shadows.settled();
      await shared.close();
      await db.$disconnect();
    },
  };
}

/** The server's caps are the most a task may ask; the hard maximum, what an admin may give one. */
function runLimitCeilingsOf(env: RuntimeEnv): { ceiling: RunLimits; hardMax: RunLimits } {
  const ceiling = { ...defaultRunLimits, ...env.runLimits };
  return { ceiling, hardMax: { ...ceiling, ...env.hardMaxRunLimits } };
}

/** The browser's origin for cookies and links: SHADOWBOX_PUBLIC_URL, else loopback at PORT. */
async function createAccountsOf(env: RuntimeEnv, db: Db): Promise<Accounts> {
  const port = env.port ?? 3000;
  const publicUrl = env.publicUrl ?? null;
  return createAccounts({
    db,
    provider: env.database.provider,
    secret: await loadAuthSecret(env.dataDir, env.authSecret),
    baseUrl: publicUrl?.origin ?? `http://127.0.0.1:${port}`,
    trustedOrigins: [...browserOrigins({ port, publicUrl }).origins],
  });
}

// Next.js may load this module more than once (instrumentation, each route bundle): the runtime
// lives on the process, so there is one database handle and one job runner per process.
const slot = Symbol.for('shadowbox.runtime');
type Slot = { [slot]?: Promise<ServerRuntime> | undefined };

/** The process's runtime, created (migrations, sweep, job runner) on first use. */
export function getRuntime(): Promise<ServerRuntime> {
  const holder = globalThis as Slot;
  holder[slot] ??= createRuntime(loadEnv()).then(
    (runtime) => {
      // The server's eval runs go on here, not in every process that opens a runtime (the CLI).
      if (runtime.role !== 'worker') {
        runtime.evals.resumeUnfinished().catch((error: unknown) => {
          console.error('shadowbox: eval runs could not be resumed:', error);
        });
      }
      return runtime;
    },
    (error: unknown) => {
      holder[slot] = undefined;
      throw error;
    },
  );
  return holder[slot];
}
