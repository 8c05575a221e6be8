'use client';

import { useMutation } from '@tanstack/react-query';
import { errorInfo } from '../../errors/error-info';
import { useTRPC } from '../../trpc/client';
import { CommentForm } from './comment-form';
import { useConversationCache } from './conversation-cache';
import type { CommentTarget } from './diff-rows';
import { placeText } from './line-selection';

/**
 * The comment box under selected lines. Saving stores a draft on the server (bound to the diff
 * shown), so it survives a reload and shows in the person's other tabs; it is sent with their
 * next review.
 */
export function NewComment({
  taskId,
  sha256,
  target,
  onClose,
}: {
  readonly taskId: string;
  readonly sha256: string;
  readonly target: CommentTarget;
  readonly onClose: () => void;
}) {
  const trpc = useTRPC();
  const cache = useConversationCache(taskId);
  const save = useMutation(
    trpc.reviews.saveDraft.mutationOptions({
      onSuccess: (draft) => {
        cache.putDraft(draft);
        onClose();
      },
    }),
  );
  const place = placeText(target);
  return (
    <div className="new-comment">
      <p className="comment-meta">
        New comment on <span className="mono">{place}</span>
      </p>
      <CommentForm
        label={`Comment on ${place}`}
        submitLabel="Save draft"
        busy={save.isPending}
        error={save.error === null ? null : errorInfo(save.error).message}
        onSubmit={(body) =>
          save.mutate({
            taskId,
            draftId: null,
            draft: {
              sha256,
              path: target.path,
              side: target.side,
              startLine: target.startLine,
              endLine: target.endLine,
              body,
            },
          })
        }
        onCancel={onClose}
      />
    </div>
  );
}
