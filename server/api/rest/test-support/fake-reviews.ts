import { randomBytes } from 'node:crypto';
import { actorLabel, cliActor, personOf } from '../../../auth/actor';
import { requireTaskRight, taskRights, type TaskRight } from '../../../auth/permissions';
import { AppError } from '../../../errors/app-error';
import type {
  DraftInput,
  DraftView,
  EarlierDiff,
  ReviewHistoryItem,
  ReviewServiceApi,
  SubmitReviewInput,
  ThreadListView,
  ThreadView,
} from '../../../reviews';
import type { Actor } from '../../../tasks/task-api';
import type { FakeTaskService } from '../../http/test-support/fake-tasks';

interface FakeReview {
  readonly id: string;
  readonly taskId: string;
  readonly verdict: SubmitReviewInput['verdict'];
  readonly by: string;
  readonly byId: string | null;
  readonly summary: string | null;
  readonly sha256: string;
  readonly at: string;
  cleared: { by: string; how: string; reason: string | null; at: string } | null;
}

/**
 * An in-memory ReviewServiceApi over a FakeTaskService, for the transports' unit tests: it records
 * what the transport handed it and answers with the service's refusals and messages (NOT_FOUND,
 * FORBIDDEN, INVALID_STATE, STALE_DIFF, OPEN_THREADS). Rights are the real permission table's,
 * as if every task belonged to its caller (an agent token comments, only a reviewer reviews).
 * A submission only records the review and opens its threads; an approval also approves the
 * fake task (through its `review`), so the task view after it is the approved one.
 */
export class FakeReviewService implements ReviewServiceApi {
  readonly submitted: { taskId: string; input: SubmitReviewInput; actor: Actor }[] = [];
  readonly replies: { taskId: string; threadId: string; body: string; actor: Actor }[] = [];
  readonly statusChanges: {
    taskId: string;
    threadId: string;
    action: 'resolve' | 'reopen';
    actor: Actor;
  }[] = [];
  readonly dismissed: { taskId: string; reviewId: string; reason: string; actor: Actor }[] = [];
  /** Who read the threads of which task (a transport must hand the service its caller). */
  readonly readers: { taskId: string; actor: Actor }[] = [];

  private readonly threadsById = new Map<string, { taskId: string; view: ThreadView }>();
  private readonly reviews = new Map<string, FakeReview>();
  private readonly draftsById = new Map<string, { taskId: string; view: DraftView }>();
  /** Earlier diffs by task and hash, as `diffAt` answers them (`addEarlierDiff`). */
  private readonly earlierDiffs = new Map<string, string>();
  private clock = Date.parse('2026-11-02T12:00:00.000Z');

  constructor(private readonly tasks: FakeTaskService) {}

  /** A thread on the task as the service would hold it; `overrides` adjust the view. */
  addThread(taskId: string, overrides: Partial<ThreadView> = {}): ThreadView {
    const at = this.now();
    const path = overrides.path ?? 'calc.py';
    const startLine = overrides.startLine ?? 2;
    const endLine = overrides.endLine ?? startLine;
    const sha256 = overrides.diffSha256 ?? 'a'.repeat(64);
    const view: ThreadView = {
      id: newId(),
      status: 'open',
      path,
      side: 'new',
      startLine,
      endLine,
      lines: ['    return a - b'],
      diffSha256: sha256,
      writtenOn: { sha256, checkpointSha: 'f'.repeat(40), path, startLine, endLine },
      outdatedReason: null,
      author: 'rita',
      resolvedBy: null,
      createdAt: at,
      comments: [
        {
          id: newId(),
          author: 'rita',
          authorKind: 'person',
          body: 'this subtracts',
          createdAt: at,
        },
      ],
      ...overrides,
    };
    this.threadsById.set(view.id, { taskId, view });
    return view;
  }

  /** A standing request for changes by `actor` on the task; returns the review's id. */
  addRequestForChanges(taskId: string, actor: Actor, sha256 = 'a'.repeat(64)): string {
    const id = newId();
    this.reviews.set(id, {
      id,
      taskId,
      verdict: 'request_changes',
      by: actorLabel(actor),
      byId: personOf(actor)?.id ?? null,
      summary: null,
      sha256,
      at: this.now(),
      cleared: null,
    });
    return id;
  }

  /** A diff of the task that a thread was written on: `diffAt` answers it. */
  addEarlierDiff(taskId: string, sha256: string, diff: string): void {
    this.earlierDiffs.set(`${taskId}:${sha256}`, diff);
  }

  thread(threadId: string): ThreadView | undefined {
    return this.threadsById.get(threadId)?.view;
  }

  async submit(taskId: string, input: SubmitReviewInput, actor: Actor): Promise<void> {
    const task = await this.task(taskId, actor, input.verdict === 'comment' ? 'comment' : 'review');
    if (task.status !== 'awaiting_review') {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is ${task.status}: there is no diff under review`,
      );
    }
    if (task.diffSha256 !== input.sha256) {
      throw new AppError(
        'STALE_DIFF',
        `the diff changed since you loaded it: you reviewed ${input.sha256.slice(0, 12)}…, the current diff is ${String(task.diffSha256).slice(0, 12)}…; reload and review it again`,
        { details: { reviewed: input.sha256, current: task.diffSha256 } },
      );
    }
    if (input.verdict === 'approve') {
      const open = this.threadsOf(taskId).filter(
        (t) => t.status === 'open' && t.diffSha256 === input.sha256,
      );
      if (open.length > 0) {
        // The service's message (server/reviews/approval-rules.ts), for up to five threads.
        const one = open.length === 1;
        const where = open.map(
          (t) =>
            `${t.path}:${t.startLine === t.endLine ? t.startLine : `${t.startLine}-${t.endLine}`} (${t.side})`,
        );
        throw new AppError(
          'OPEN_THREADS',
          `${open.length} ${one ? 'thread' : 'threads'} on this diff ${one ? 'is' : 'are'} still open (${where.join(', ')}): resolve ${one ? 'it' : 'them'} before approving`,
          { details: { open: open.map((t) => t.id) } },
        );
      }
    }
    const by = actorLabel(actor);
    for (const comment of input.comments ?? []) {
      const { body, ...range } = comment;
      this.addThread(taskId, {
        ...range,
        diffSha256: input.sha256,
        author: by,
        comments: [
          { id: newId(), author: by, authorKind: kindOf(actor), body, createdAt: this.now() },
        ],
      });
    }
    const id = newId();
    this.reviews.set(id, {
      id,
      taskId,
      verdict: input.verdict,
      by,
      byId: personOf(actor)?.id ?? null,
      summary: input.summary ?? null,
      sha256: input.sha256,
      at: this.now(),
      cleared: null,
    });
    this.submitted.push({ taskId, input, actor });
    if (input.verdict === 'approve') {
      await this.tasks.review(taskId, { verdict: 'approve', sha256: input.sha256 }, actor);
    }
  }

  async threads(taskId: string, actor: Actor): Promise<ThreadListView> {
    const task = await this.task(taskId, actor, 'see');
    this.readers.push({ taskId, actor });
    const threads = this.threadsOf(taskId);
    return {
      diffSha256: task.diffSha256,
      threads: [
        ...threads.filter((t) => t.status !== 'outdated'),
        ...threads.filter((t) => t.status === 'outdated'),
      ],
    };
  }

  async reply(taskId: string, threadId: string, body: string, actor: Actor): Promise<ThreadView> {
    await this.task(taskId, actor, 'comment');
    const thread = this.threadIn(taskId, threadId);
    const by = actorLabel(actor);
    const comment = {
      id: newId(),
      author: by,
      authorKind: kindOf(actor),
      body,
      createdAt: this.now(),
    };
    this.replies.push({ taskId, threadId, body, actor });
    return this.setThread(taskId, { ...thread, comments: [...thread.comments, comment] });
  }

  resolve(taskId: string, threadId: string, actor: Actor): Promise<ThreadView> {
    return this.setStatus(taskId, threadId, 'resolve', actor);
  }

  reopen(taskId: string, threadId: string, actor: Actor): Promise<ThreadView> {
    return this.setStatus(taskId, threadId, 'reopen', actor);
  }

  async dismiss(taskId: string, reviewId: string, reason: string, actor: Actor): Promise<void> {
    await this.task(taskId, actor, 'review');
    const review = this.reviews.get(reviewId);
    if (review?.taskId !== taskId) {
      throw new AppError('NOT_FOUND', `no review ${reviewId} in task ${taskId}`);
    }
    if (review.verdict !== 'request_changes' || review.cleared !== null) {
      throw new AppError(
        'INVALID_STATE',
        `review ${reviewId} is not a standing request for changes: there is nothing to dismiss`,
      );
    }
    const person = personOf(actor);
    if (actor.kind !== 'cli' && person?.role !== 'admin' && review.byId !== person?.id) {
      throw new AppError(
        'FORBIDDEN',
        `only ${review.by}, who requested the changes, or an admin can dismiss that request`,
      );
    }
    review.cleared = { by: actorLabel(actor), how: 'dismissed', reason, at: this.now() };
    this.dismissed.push({ taskId, reviewId, reason, actor });
  }

  async history(taskId: string, actor: Actor): Promise<readonly ReviewHistoryItem[]> {
    await this.task(taskId, actor, 'see');
    return [...this.reviews.values()]
      .filter((r) => r.taskId === taskId)
      .map((r) => ({
        id: r.id,
        verdict: r.verdict,
        by: r.by,
        summary: r.summary,
        sha256: r.sha256,
        at: r.at,
        cleared: r.cleared,
      }));
  }

  async diffAt(taskId: string, sha256: string, actor: Actor): Promise<EarlierDiff> {
    await this.task(taskId, actor, 'see');
    const diff = this.earlierDiffs.get(`${taskId}:${sha256}`);
    if (diff === undefined) throw new AppError('NOT_FOUND', `task ${taskId} has no diff ${sha256}`);
    return { diff, sha256 };
  }

  async drafts(taskId: string, actor: Actor): Promise<readonly DraftView[]> {
    await this.task(taskId, actor, 'comment');
    return [...this.draftsById.values()].filter((d) => d.taskId === taskId).map((d) => d.view);
  }

  async saveDraft(
    taskId: string,
    draftId: string | null,
    input: DraftInput,
    actor: Actor,
  ): Promise<DraftView> {
    await this.task(taskId, actor, 'comment');
    const id = draftId ?? newId();
    if (draftId !== null && this.draftsById.get(draftId)?.taskId !== taskId) {
      throw new AppError('NOT_FOUND', `no draft ${draftId}`);
    }
    const reply = 'threadId' in input;
    const view: DraftView = {
      id,
      diffSha256: input.sha256,
      threadId: reply ? input.threadId : null,
      path: reply ? null : input.path,
      side: reply ? null : input.side,
      startLine: reply ? null : input.startLine,
      endLine: reply ? null : input.endLine,
      body: input.body,
      updatedAt: this.now(),
    };
    this.draftsById.set(id, { taskId, view });
    return view;
  }

  async deleteDraft(taskId: string, draftId: string, actor: Actor): Promise<void> {
    await this.task(taskId, actor, 'comment');
    if (this.draftsById.get(draftId)?.taskId !== taskId) {
      throw new AppError('NOT_FOUND', `no draft ${draftId}`);
    }
    this.draftsById.delete(draftId);
  }

  private async setStatus(
    taskId: string,
    threadId: string,
    action: 'resolve' | 'reopen',
    actor: Actor,
  ): Promise<ThreadView> {
    const rights = await this.task(taskId, actor, 'see');
    const thread = this.threadIn(taskId, threadId);
    if (!rights.canReview) {
      // The service's own refusal (server/reviews/thread-actions.ts).
      throw new AppError(
        'FORBIDDEN',
        actor.kind === 'token' && !actor.scopes.includes('reviewer')
          ? `an agent cannot ${action} a thread: it replies, and a reviewer ${action === 'resolve' ? 'resolves' : 'reopens'} it`
          : `${action === 'resolve' ? 'resolving' : 'reopening'} a thread needs a reviewer, an admin or the person who opened it`,
        { details: { taskId, threadId } },
      );
    }
    const [from, to] =
      action === 'resolve' ? (['open', 'resolved'] as const) : (['resolved', 'open'] as const);
    if (thread.status !== from) {
      throw new AppError(
        'INVALID_STATE',
        `thread ${threadId} is ${thread.status}: only ${from === 'open' ? 'an open' : 'a resolved'} thread can be ${action === 'resolve' ? 'resolved' : 'reopened'}`,
      );
    }
    this.statusChanges.push({ taskId, threadId, action, actor });
    return this.setThread(taskId, {
      ...thread,
      status: to,
      resolvedBy: to === 'resolved' ? actorLabel(actor) : null,
    });
  }

  /** The task as the service's gate reads it: NOT_FOUND, or FORBIDDEN without `right`. */
  private async task(taskId: string, actor: Actor, right: TaskRight) {
    // Read as the CLI, so a test tells the transport's own reads apart in `readers`.
    const view = await this.tasks.getTask(taskId, cliActor);
    const ownership = { id: taskId, ownerId: personOf(actor)?.id ?? null, teamId: null };
    requireTaskRight(actor, ownership, right);
    const canReview = taskRights(actor, ownership).has('review');
    return { status: view.status, diffSha256: view.diffSha256, canReview };
  }

  private threadsOf(taskId: string): ThreadView[] {
    return [...this.threadsById.values()].filter((t) => t.taskId === taskId).map((t) => t.view);
  }

  private threadIn(taskId: string, threadId: string): ThreadView {
    const thread = this.threadsById.get(threadId);
    if (thread?.taskId !== taskId) {
      throw new AppError('NOT_FOUND', `no thread ${threadId} in task ${taskId}`);
    }
    return thread.view;
  }

  private setThread(taskId: string, view: ThreadView): ThreadView {
    this.threadsById.set(view.id, { taskId, view });
    return view;
  }

  private now(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }
}

function kindOf(actor: Actor): 'agent' | 'person' {
  return actor.kind === 'token' && !actor.scopes.includes('reviewer') ? 'agent' : 'person';
}

/** A cuid-shaped id: 'c' and 24 lowercase hex digits. */
function newId(): string {
  return `c${randomBytes(12).toString('hex')}`;
}
