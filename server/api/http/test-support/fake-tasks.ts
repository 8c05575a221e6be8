import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { actorLabel, personOf } from '../../../auth/actor';
import type { StoredEvent } from '../../../db/event-store';
import { activeStatuses } from '../../../engine/lifecycle';
import { checkTaskPurpose } from '../../../tasks/task-title';
import { AppError } from '../../../errors/app-error';
import type { DiffFlags } from '../../../engine/review/diff-flags';
import type { Hypothesis } from '../../../engine/shadow/hypothesis';
import type {
  Actor,
  CreateTaskInput,
  DiffView,
  PatchDownload,
  ExportKind,
  MilestoneAction,
  MilestoneResult,
  PushOutcome,
  PushTaskInput,
  ReviewInput,
  TaskServiceApi,
  TaskPage,
  TaskView,
  WorkspaceFile,
} from '../../../tasks/task-api';
import type { CompareCell, CompareMatrix } from '../../../tasks/compare';
import { formatRef, type InterdiffQuery, type InterdiffView } from '../../../tasks/interdiff-refs';
import type { RemoteSummary } from '../../../remotes/remotes';
import type { PromoteInput } from '../../../tasks/promote-input';
import {
  decodeCursor,
  parseListTasksQuery,
  type ListTasksQueryInput,
} from '../../../tasks/list-tasks-query';
import {
  checkAgainstEntries,
  defaultMaxPendingHypotheses,
  inboxFullError,
} from '../../../tasks/submit-hypotheses';

/** What `createTask` received; for an archive, also the bytes the file held when it arrived. */
export interface CreatedTaskRecord {
  readonly id: string;
  readonly input: CreateTaskInput;
  readonly actor: Actor;
  readonly archiveBytes: Buffer | null;
}

export const emptyDiffFlags: DiffFlags = {
  files: 0,
  additions: 0,
  deletions: 0,
  bytes: 0,
  testFiles: [],
  deletedTests: [],
  modeChanges: [],
  binaryFiles: [],
  symlinks: [],
  hiddenCharacters: [],
  large: false,
};

interface FakeTask {
  view: TaskView;
  diff: string | null;
  readonly events: StoredEvent[];
}

/**
 * An in-memory TaskServiceApi with the contract's refusals (NOT_FOUND, INVALID_HYPOTHESIS,
 * STALE_DIFF, INVALID_STATE) and a live event feed, recording what the transport handed it.
 */
export class FakeTaskService implements TaskServiceApi {
  readonly created: CreatedTaskRecord[] = [];
  readonly submitted: { taskId: string; hypotheses: readonly Hypothesis[]; actor: Actor }[] = [];
  readonly reviews: { taskId: string; input: ReviewInput; actor: Actor }[] = [];
  readonly cancelled: { taskId: string; actor: Actor }[] = [];
  readonly rolledBack: { taskId: string; actor: Actor }[] = [];
  readonly reopened: { taskId: string; actor: Actor }[] = [];
  readonly sentToReview: { taskId: string; actor: Actor }[] = [];
  readonly promoted: { taskId: string; input: PromoteInput; actor: Actor }[] = [];
  readonly interdiffs: { taskId: string; query: InterdiffQuery; actor: Actor }[] = [];
  readonly acceptedKnown: { taskId: string; ids: readonly string[]; actor: Actor }[] = [];
  /** Who asked, for every read (getTask, listTasks, getDiff, getPatch, listFiles, readFile,
   * taskChanges, events): a transport must hand the service its caller. */
  readonly readers: { method: string; taskId: string | null; actor: Actor }[] = [];
  /** What `listFiles`/`readFile` answer, per task. */
  readonly files = new Map<string, Map<string, string>>();
  readonly listCalls: (ListTasksQueryInput | undefined)[] = [];
  /** How many `events` iterators are still open (a stream must close its source). */
  openEventStreams = 0;
  /** The cap of pending hypotheses per task, as the service's. */
  maxPendingHypotheses = defaultMaxPendingHypotheses;

  private readonly tasks = new Map<string, FakeTask>();
  private readonly listeners = new Set<() => void>();
  private clock = Date.parse('2026-11-02T10:00:00.000Z');

  /** A task as the service would hold it after `createTask`; `overrides` adjust the view. */
  addTask(overrides: Partial<TaskView> = {}): TaskView {
    const id = overrides.id ?? newId();
    const now = this.now();
    const view: TaskView = {
      id,
      status: 'queued',
      source: { kind: 'git', url: 'https://example.com/repo.git', ref: null },
      title: 'repo',
      problem: '',
      issueUrl: null,
      testCommand: ['pytest', '-q'],
      maxIterations: 3,
      hypothesesPerIteration: 3,
      hypothesisWaitSecs: 1800,
      reviewNowRequestedBy: null,
      knownFailureOffer: [],
      baseline: null,
      iterations: [],
      pendingHypotheses: [],
      diffSha256: null,
      approvedDiffSha256: null,
      error: null,
      lastEventId: 0,
      workerId: null,
      createdAt: now,
      updatedAt: now,
      fixer: 'external',
      allowTestEdits: false,
      limits: { maxMemoryMb: null, maxPids: null, maxDiskMb: null, maxInodes: null },
      spend: { tokens: 0, costMicroUsd: 0, maxTokens: null },
      plan: [],
      reviewComments: [],
      setupCommands: null,
      buildCommand: null,
      knownFailures: [],
      setup: null,
      reviewPartial: false,
      stillFailing: [],
      owner: null,
      team: null,
      decision: null,
      review: {
        round: 0,
        maxRounds: 5,
        state: 'none',
        summary: null,
        changesRequestedBy: [],
        openThreads: [],
        outdatedThreads: 0,
        resolvedThreads: 0,
      },
      can: actionsFor(overrides.status ?? 'queued'),
      ...overrides,
    };
    this.tasks.set(id, { view, diff: null, events: [] });
    return view;
  }

  /** Updates a task's view; `can` follows its status unless given. */
  private update(task: FakeTask, patch: Partial<TaskView>): TaskView {
    const status = patch.status ?? task.view.status;
    task.view = { ...task.view, can: actionsFor(status), ...patch };
    return task.view;
  }

  /** Stores a diff for review; returns its SHA-256. */
  setDiff(taskId: string, diff: string): string {
    const task = this.require(taskId);
    const sha256 = createHash('sha256').update(diff).digest('hex');
    task.diff = diff;
    this.update(task, { status: 'awaiting_review', diffSha256: sha256 });
    return sha256;
  }

  /** Persists and publishes an event with the next seq. */
  emit(taskId: string, type: string, payload: StoredEvent['payload'] = {}): StoredEvent {
    const task = this.require(taskId);
    const event: StoredEvent = {
      seq: task.events.length + 1,
      type,
      payload,
      createdAt: new Date(this.now()),
    };
    task.events.push(event);
    this.update(task, { lastEventId: event.seq });
    for (const listener of [...this.listeners]) listener();
    return event;
  }

  /** The milestone calls received; `status` answers with the task's plan. */
  readonly milestones: { taskId: string; action: MilestoneAction; actor: Actor }[] = [];

  milestone(taskId: string, action: MilestoneAction, actor: Actor): Promise<MilestoneResult> {
    const task = this.require(taskId);
    this.milestones.push({ taskId, action, actor });
    const status = {
      current: task.view.plan.find((s) => s.status === 'open') ?? null,
      steps: task.view.plan,
    };
    if (action.action === 'done') {
      return Promise.resolve({ accepted: false, reason: 'no gate ran (fake)', status });
    }
    return Promise.resolve({ accepted: true, status });
  }

  async createTask(input: CreateTaskInput, actor: Actor): Promise<{ readonly id: string }> {
    let archiveBytes: Buffer | null = null;
    if (input.source.kind === 'archive') {
      // The service owns the upload: read it, then delete it as the real one does.
      archiveBytes = await readFile(input.source.file);
      await rm(input.source.file);
    }
    const source =
      input.source.kind === 'git'
        ? { kind: 'git' as const, url: input.source.url, ref: input.source.ref ?? null }
        : { kind: 'archive' as const, name: input.source.name };
    const purpose = checkTaskPurpose(input);
    const view = this.addTask({
      source,
      ...purpose,
      testCommand: input.testCommand,
      maxIterations: input.maxIterations ?? 3,
      hypothesesPerIteration: input.hypothesesPerIteration ?? 3,
      setupCommands: input.setupCommands ?? null,
      buildCommand: input.buildCommand ?? null,
      knownFailures: input.knownFailures ?? [],
      owner: personOf(actor)?.username ?? null,
      team: input.team ?? null,
    });
    this.created.push({ id: view.id, input, actor, archiveBytes });
    return { id: view.id };
  }

  /**
   * The service's refusals, in its order: repeated names, paths the task's files rule out (checked
   * against `files` as the service checks the worktree), then the cap of pending hypotheses.
   */
  async submitHypotheses(
    taskId: string,
    hypotheses: readonly Hypothesis[],
    actor: Actor,
  ): Promise<{ readonly accepted: readonly string[] }> {
    const task = this.require(taskId);
    const names = hypotheses.map((hypothesis) => hypothesis.name);
    const taken = new Set(task.view.pendingHypotheses);
    for (const name of names) {
      if (taken.has(name)) {
        throw new AppError('INVALID_HYPOTHESIS', `a hypothesis named "${name}" is already queued`);
      }
      taken.add(name);
    }
    const files = this.files.get(taskId);
    if (files !== undefined) {
      await checkAgainstEntries(hypotheses, (p) =>
        Promise.resolve(
          files.has(p)
            ? 'file'
            : [...files.keys()].some((f) => f.startsWith(`${p}/`))
              ? 'directory'
              : null,
        ),
      );
    }
    const pending = task.view.pendingHypotheses.length;
    const full = inboxFullError(taskId, pending, names.length, this.maxPendingHypotheses);
    if (full !== null) throw full;
    this.update(task, { pendingHypotheses: [...taken] });
    this.submitted.push({ taskId, hypotheses, actor });
    return { accepted: names };
  }

  getTask(taskId: string, actor: Actor): Promise<TaskView> {
    this.readers.push({ method: 'getTask', taskId, actor });
    return Promise.resolve(this.require(taskId).view);
  }

  /** Every task, filtered by status only, one page: the transports' part is what is tested. */
  listTasks(actor: Actor, query?: ListTasksQueryInput): Promise<TaskPage> {
    this.readers.push({ method: 'listTasks', taskId: null, actor });
    const parsed = parseListTasksQuery(query);
    this.listCalls.push(query);
    if (parsed.cursor !== undefined) decodeCursor(parsed.cursor, parsed.sort);
    const summaries = [...this.tasks.values()].map(({ view }) => ({
      id: view.id,
      status: view.status,
      title: view.title,
      source: view.source,
      createdAt: view.createdAt,
      updatedAt: view.updatedAt,
      lastEventId: view.lastEventId,
      owner: view.owner,
      workerId: view.workerId,
    }));
    const shown = summaries.filter(
      (task) => parsed.status === undefined || parsed.status.includes(task.status),
    );
    return Promise.resolve({ tasks: shown.slice(0, parsed.limit), nextCursor: null });
  }

  getDiff(taskId: string, actor: Actor): Promise<DiffView> {
    this.readers.push({ method: 'getDiff', taskId, actor });
    return this.diffOf(taskId);
  }

  private diffOf(taskId: string): Promise<DiffView> {
    const task = this.require(taskId);
    if (task.diff === null || task.view.diffSha256 === null) {
      return Promise.reject(new AppError('INVALID_STATE', `task ${taskId} has no diff yet`));
    }
    return Promise.resolve({
      diff: task.diff,
      sha256: task.view.diffSha256,
      flags: { ...emptyDiffFlags, files: 1, bytes: Buffer.byteLength(task.diff) },
    });
  }

  async getPatch(taskId: string, actor: Actor): Promise<PatchDownload> {
    this.readers.push({ method: 'getPatch', taskId, actor });
    const { diff, sha256 } = await this.diffOf(taskId);
    return {
      bytes: Buffer.from(diff, 'utf8'),
      sha256,
      fileName: `shadowbox-${taskId}-${sha256.slice(0, 12)}.patch`,
    };
  }

  /** The remotes `listRemotes` answers. */
  readonly remotes: { name: string; url: string; forge: 'github' | 'gitea' | null }[] = [];

  listRemotes(actor: Actor): Promise<readonly RemoteSummary[]> {
    this.readers.push({ method: 'listRemotes', taskId: null, actor });
    return Promise.resolve([...this.remotes]);
  }

  /** Records the push; answers as a remote that took it would. */
  readonly pushes: { taskId: string; input: PushTaskInput; actor: Actor }[] = [];

  push(taskId: string, input: PushTaskInput, actor: Actor): Promise<PushOutcome> {
    const task = this.require(taskId);
    const sha256 = task.view.approvedDiffSha256;
    if (task.view.status !== 'approved' || sha256 === null) {
      return Promise.reject(
        new AppError('INVALID_STATE', `task ${taskId} is ${task.view.status}: not approved`),
      );
    }
    this.pushes.push({ taskId, input, actor });
    return Promise.resolve({
      remote: input.remote,
      branch: input.branch ?? `shadowbox/${taskId}`,
      commit: 'c'.repeat(40),
      sha256,
      pullRequest: null,
    });
  }

  exportApproved(taskId: string, what: ExportKind, actor: Actor): Promise<PatchDownload> {
    this.readers.push({ method: 'exportApproved', taskId, actor });
    const task = this.require(taskId);
    const sha256 = task.view.approvedDiffSha256;
    if (task.view.status !== 'approved' || sha256 === null) {
      return Promise.reject(
        new AppError('INVALID_STATE', `task ${taskId} is ${task.view.status}: not approved`),
      );
    }
    const name = `shadowbox-${taskId}-${sha256.slice(0, 12)}${what.squash ? '-squashed' : ''}`;
    return Promise.resolve(
      what.kind === 'series'
        ? { bytes: Buffer.from(task.diff ?? ''), sha256, fileName: `${name}.mbox` }
        : { bytes: Buffer.from('# v2 git bundle\n'), sha256, fileName: `${name}.bundle` },
    );
  }

  review(taskId: string, input: ReviewInput, actor: Actor): Promise<TaskView> {
    const task = this.require(taskId);
    if (task.view.diffSha256 === null) {
      return Promise.reject(new AppError('INVALID_STATE', `task ${taskId} has no diff to review`));
    }
    if (task.view.status !== 'awaiting_review') {
      return Promise.reject(
        new AppError('INVALID_STATE', `task ${taskId} is ${task.view.status}, not awaiting review`),
      );
    }
    if (input.sha256 !== task.view.diffSha256) {
      return Promise.reject(
        new AppError('STALE_DIFF', 'the diff changed since it was shown; review the current one', {
          details: { current: task.view.diffSha256 },
        }),
      );
    }
    this.reviews.push({ taskId, input, actor });
    const decision = {
      verdict: input.verdict,
      by: actorLabel(actor),
      at: this.now(),
      sha256: input.sha256,
    };
    return Promise.resolve(
      this.update(
        task,
        input.verdict === 'approve'
          ? { status: 'approved', approvedDiffSha256: input.sha256, decision }
          : { status: 'rejected', decision },
      ),
    );
  }

  /** Only an approved task is reopened: back to review, its approval dropped. */
  reopen(taskId: string, actor: Actor): Promise<TaskView> {
    const task = this.require(taskId);
    if (task.view.status !== 'approved') {
      return Promise.reject(
        new AppError('INVALID_STATE', `task ${taskId} is ${task.view.status}, not approved`),
      );
    }
    this.reopened.push({ taskId, actor });
    return Promise.resolve(
      this.update(task, { status: 'awaiting_review', approvedDiffSha256: null }),
    );
  }

  cancel(taskId: string, actor: Actor): Promise<TaskView> {
    const task = this.require(taskId);
    this.cancelled.push({ taskId, actor });
    return Promise.resolve(this.update(task, { status: 'cancelled' }));
  }

  sendToReview(taskId: string, actor: Actor): Promise<TaskView> {
    const task = this.require(taskId);
    if (task.view.status !== 'awaiting_hypotheses') {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is ${task.view.status}: only a task waiting for hypotheses is sent to review early`,
      );
    }
    this.sentToReview.push({ taskId, actor });
    return Promise.resolve(this.update(task, { reviewNowRequestedBy: 'fake' }));
  }

  promote(taskId: string, input: PromoteInput, actor: Actor): Promise<TaskView> {
    const task = this.require(taskId);
    if (task.view.status !== 'awaiting_review') {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is ${task.view.status}: only a task awaiting review can have a runner-up promoted`,
      );
    }
    this.promoted.push({ taskId, input, actor });
    return Promise.resolve(this.update(task, {}));
  }

  /** A diff that names both refs, so a test sees they arrived parsed. */
  interdiff(taskId: string, query: InterdiffQuery, actor: Actor): Promise<InterdiffView> {
    this.require(taskId);
    this.interdiffs.push({ taskId, query, actor });
    const [a, b] = [formatRef(query.a), formatRef(query.b)];
    return Promise.resolve({ a, b, diff: `--- ${a}\n+++ ${b}\n`, files: [] });
  }

  acceptKnownFailures(taskId: string, ids: readonly string[], actor: Actor): Promise<TaskView> {
    const task = this.require(taskId);
    const refused = ids.find((id) => !task.view.knownFailureOffer.includes(id));
    if (refused !== undefined) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `${JSON.stringify(refused)} cannot be accepted as a known failure`,
      );
    }
    this.acceptedKnown.push({ taskId, ids, actor });
    return Promise.resolve(
      this.update(task, {
        knownFailures: [...task.view.knownFailures, ...ids],
        knownFailureOffer: task.view.knownFailureOffer.filter((id) => !ids.includes(id)),
      }),
    );
  }

  rollback(taskId: string, actor: Actor): Promise<TaskView> {
    const task = this.require(taskId);
    this.rolledBack.push({ taskId, actor });
    return Promise.resolve(this.update(task, { status: 'cancelled' }));
  }

  /** What `compare` answers per task; without one, an empty matrix of the task's iterations. */
  readonly matrices = new Map<string, CompareMatrix>();

  compare(taskId: string, iteration: number | undefined, actor: Actor): Promise<CompareMatrix> {
    this.readers.push({ method: 'compare', taskId, actor });
    const task = this.require(taskId);
    const iterations = task.view.iterations.length;
    if (iteration !== undefined && iteration > iterations) {
      return Promise.reject(
        new AppError('NOT_FOUND', `task ${taskId} has no iteration ${iteration}`),
      );
    }
    const matrix = this.matrices.get(taskId);
    return Promise.resolve(
      matrix ?? { taskId, iteration: iteration ?? null, iterations, columns: [], rows: [] },
    );
  }

  compareCell(taskId: string, runId: string, test: string, actor: Actor): Promise<CompareCell> {
    this.readers.push({ method: 'compareCell', taskId, actor });
    this.require(taskId);
    return Promise.resolve({ runId, test, lines: [], source: 'none captured', truncated: false });
  }

  listFiles(taskId: string, actor: Actor): Promise<readonly WorkspaceFile[]> {
    this.readers.push({ method: 'listFiles', taskId, actor });
    this.require(taskId);
    const files = [...(this.files.get(taskId) ?? new Map<string, string>())];
    return Promise.resolve(
      files.map(([path, content]) => ({
        path,
        size: Buffer.byteLength(content),
        executable: false,
      })),
    );
  }

  readFile(taskId: string, path: string, actor: Actor): Promise<string> {
    this.readers.push({ method: 'readFile', taskId, actor });
    this.require(taskId);
    const content = this.files.get(taskId)?.get(path);
    if (content === undefined) {
      return Promise.reject(new AppError('NOT_FOUND', `no file ${path} in task ${taskId}`));
    }
    return Promise.resolve(content);
  }

  async *taskChanges(
    signal: AbortSignal,
    actor: Actor,
  ): AsyncIterable<{ readonly taskId: string; readonly seq: number }> {
    this.readers.push({ method: 'taskChanges', taskId: null, actor });
    let seen = new Map([...this.tasks].map(([id, task]) => [id, task.events.length]));
    while (!signal.aborted) {
      await this.changeOrAbort(signal);
      const now = new Map([...this.tasks].map(([id, task]) => [id, task.events.length]));
      for (const [taskId, seq] of now) {
        if (seq !== (seen.get(taskId) ?? 0)) yield { taskId, seq };
      }
      seen = now;
    }
  }

  async *events(
    taskId: string,
    afterSeq: number,
    signal: AbortSignal,
    actor: Actor,
  ): AsyncIterable<StoredEvent> {
    this.readers.push({ method: 'events', taskId, actor });
    const task = this.require(taskId);
    this.openEventStreams++;
    try {
      let cursor = afterSeq;
      while (!signal.aborted) {
        const next = task.events.find((event) => event.seq > cursor);
        if (next !== undefined) {
          cursor = next.seq;
          yield next;
          continue;
        }
        await this.changeOrAbort(signal);
      }
    } finally {
      this.openEventStreams--;
    }
  }

  private changeOrAbort(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.listeners.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.listeners.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private require(taskId: string): FakeTask {
    const task = this.tasks.get(taskId);
    if (task === undefined) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    return task;
  }

  private now(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }
}

/** What the caller may do now, as the service answers for someone with every right on the task. */
function actionsFor(status: TaskView['status']): TaskView['can'] {
  const active = activeStatuses.has(status);
  const open = active || status === 'awaiting_review';
  return {
    submit: open,
    cancel: active,
    rollback: open,
    review: status === 'awaiting_review',
    comment: status === 'awaiting_review',
    reopen: status === 'approved',
    push: status === 'approved',
    sendToReview: status === 'awaiting_hypotheses',
    acceptKnownFailures: status === 'awaiting_hypotheses',
  };
}

/** A cuid-shaped id: 'c' and 24 lowercase hex digits. */
function newId(): string {
  return `c${randomBytes(12).toString('hex')}`;
}
