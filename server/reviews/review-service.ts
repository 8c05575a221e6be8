import type { Actor } from '../auth/actor';
import { deleteDraft, listDrafts, saveDraft } from './drafts';
import { dismissReview } from './dismiss-review';
import { earlierDiff, reviewHistory } from './review-history';
import type { DraftInput, ReviewServiceApi, SubmitReviewInput } from './review-api';
import type { ReviewServiceDeps } from './review-deps';
import { submitReview } from './submit-review';
import { listThreads, replyToThread, setThreadStatus } from './thread-actions';

/** The review verbs bound to one set of dependencies: each method calls its verb's file. */
export class ReviewService implements ReviewServiceApi {
  constructor(private readonly deps: ReviewServiceDeps) {}

  submit(taskId: string, input: SubmitReviewInput, actor: Actor) {
    return submitReview(this.deps, { taskId, input, actor });
  }

  threads(taskId: string, actor: Actor) {
    return listThreads(this.deps, { taskId, actor });
  }

  reply(taskId: string, threadId: string, body: string, actor: Actor) {
    return replyToThread(this.deps, { taskId, threadId, body, actor });
  }

  resolve(taskId: string, threadId: string, actor: Actor) {
    return setThreadStatus(this.deps, { taskId, threadId, action: 'resolve', actor });
  }

  reopen(taskId: string, threadId: string, actor: Actor) {
    return setThreadStatus(this.deps, { taskId, threadId, action: 'reopen', actor });
  }

  dismiss(taskId: string, reviewId: string, reason: string, actor: Actor) {
    return dismissReview(this.deps, { taskId, reviewId, reason, actor });
  }

  history(taskId: string, actor: Actor) {
    return reviewHistory(this.deps, { taskId, actor });
  }

  diffAt(taskId: string, sha256: string, actor: Actor) {
    return earlierDiff(this.deps, { taskId, sha256, actor });
  }

  drafts(taskId: string, actor: Actor) {
    return listDrafts(this.deps, { taskId, actor });
  }

  saveDraft(taskId: string, draftId: string | null, input: DraftInput, actor: Actor) {
    return saveDraft(this.deps, { taskId, draftId, input, actor });
  }

  deleteDraft(taskId: string, draftId: string, actor: Actor) {
    return deleteDraft(this.deps, { taskId, draftId, actor });
  }
}
