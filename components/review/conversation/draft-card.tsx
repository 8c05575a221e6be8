'use client';

import { useMutation } from '@tanstack/react-query';
import { errorInfo } from '../../errors/error-info';
import { useTRPC } from '../../trpc/client';
import type { DraftView } from '../../trpc/router-types';
import { CommentBody } from './comment-body';
import { CommentForm } from './comment-form';
import { useConversationCache } from './conversation-cache';

/**
 * One of the person's draft comments (a new thread's first comment, or a reply), marked "Draft":
 * only they see it until their review is submitted. It can be rewritten or deleted.
 */
export function DraftCard({
  taskId,
  draft,
  place,
  editing,
  onEditing,
  editable = true,
}: {
  readonly taskId: string;
  readonly draft: DraftView;
  /** What it is about, in words: "calc.py lines 3–5", "reply". */
  readonly place: string;
  readonly editing: boolean;
  readonly onEditing: (editing: boolean) => void;
  /** False for a draft on another diff: it can only be deleted. */
  readonly editable?: boolean;
}) {
  const trpc = useTRPC();
  const cache = useConversationCache(taskId);
  const save = useMutation(
    trpc.reviews.saveDraft.mutationOptions({
      onSuccess: (saved) => {
        cache.putDraft(saved);
        onEditing(false);
      },
    }),
  );
  const remove = useMutation(
    trpc.reviews.deleteDraft.mutationOptions({ onSuccess: () => cache.dropDraft(draft.id) }),
  );
  const rewrite = (body: string): void => {
    const draftInput =
      draft.threadId !== null
        ? { sha256: draft.diffSha256, threadId: draft.threadId, body }
        : {
            sha256: draft.diffSha256,
            path: draft.path ?? '',
            side: draft.side ?? 'new',
            startLine: draft.startLine ?? 0,
            endLine: draft.endLine ?? 0,
            body,
          };
    save.mutate({ taskId, draftId: draft.id, draft: draftInput });
  };
  const failure = save.error ?? remove.error;
  return (
    <article className="draft" aria-label={`Draft comment on ${place}`}>
      <p className="comment-meta">
        <span className="draft-badge">Draft</span> <span className="mono">{place}</span>{' '}
        <span className="muted">sent with your review</span>
      </p>
      {editing && editable ? (
        <CommentForm
          label={`Edit the draft comment on ${place}`}
          submitLabel="Save draft"
          initialBody={draft.body}
          busy={save.isPending}
          error={save.error === null ? null : errorInfo(save.error).message}
          onSubmit={rewrite}
          onCancel={() => onEditing(false)}
        />
      ) : (
        <>
          <CommentBody body={draft.body} />
          <div className="comment-actions">
            {editable ? (
              <button type="button" onClick={() => onEditing(true)} disabled={remove.isPending}>
                Edit
              </button>
            ) : null}
            <button
              type="button"
              onClick={() => remove.mutate({ taskId, draftId: draft.id })}
              disabled={remove.isPending}
            >
              Delete
            </button>
          </div>
          {failure === null ? null : (
            <p className="form-error" role="alert">
              {errorInfo(failure).message}
            </p>
          )}
        </>
      )}
    </article>
  );
}
