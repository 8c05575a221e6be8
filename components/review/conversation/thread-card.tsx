'use client';

import { useMutation } from '@tanstack/react-query';
import { errorInfo } from '../../errors/error-info';
import { shortHash } from '../decision';
import { useTRPC } from '../../trpc/client';
import type { DraftView, ThreadView } from '../../trpc/router-types';
import { CommentForm } from './comment-form';
import { useConversationCache } from './conversation-cache';
import { DraftCard } from './draft-card';
import { placeText } from './line-selection';
import { ThreadComments } from './thread-comments';

/** What the person may do in threads (the server checks again). */
export interface ThreadRights {
  /** Reply (and write line comments): the task's `can.comment`. */
  readonly comment: boolean;
  /** Resolve or reopen this thread: a reviewer, or whoever opened it. */
  readonly resolve: (thread: ThreadView) => boolean;
}

/**
 * A review thread: where it is, its comments (an agent's or the fixer's answers marked), the
 * person's draft replies, a reply box (a reply is posted at once, as on GitHub), and Resolve or
 * Reopen for those who may. A resolved thread shows only its header until opened.
 */
export function ThreadCard({
  taskId,
  thread,
  replyDrafts,
  rights,
  expanded,
  onExpanded,
  replying,
  onReplying,
  editingDrafts,
  onEditingDraft,
  current = false,
  showCode = false,
}: {
  readonly taskId: string;
  readonly thread: ThreadView;
  readonly replyDrafts: readonly DraftView[];
  readonly rights: ThreadRights;
  /** Whether a resolved thread's comments are shown (open threads always are). */
  readonly expanded: boolean;
  readonly onExpanded: (expanded: boolean) => void;
  readonly replying: boolean;
  readonly onReplying: (replying: boolean) => void;
  readonly editingDrafts: ReadonlySet<string>;
  readonly onEditingDraft: (draftId: string, editing: boolean) => void;
  /** The thread `j`/`k` moved to. */
  readonly current?: boolean;
  /** Show the code it is about (threads listed apart from the diff). */
  readonly showCode?: boolean;
}) {
  const trpc = useTRPC();
  const cache = useConversationCache(taskId);
  const reply = useMutation(
    trpc.reviews.reply.mutationOptions({
      onSuccess: (view) => {
        cache.putThread(view);
        onReplying(false);
      },
    }),
  );
  const resolve = useMutation(
    trpc.reviews.resolve.mutationOptions({ onSuccess: (view) => cache.putThread(view) }),
  );
  const reopen = useMutation(
    trpc.reviews.reopen.mutationOptions({ onSuccess: (view) => cache.putThread(view) }),
  );
  const place = placeText(thread);
  const open = thread.status === 'open' || expanded;
  const busy = resolve.isPending || reopen.isPending;
  const failure = resolve.error ?? reopen.error;

  return (
    <article
      id={`thread-${thread.id}`}
      className={`thread thread-${thread.status}${current ? ' current' : ''}`}
      aria-label={`Thread on ${place}`}
      data-current={current ? 'true' : undefined}
      tabIndex={-1}
    >
      <header className="thread-header">
        <span className="mono">{place}</span>{' '}
        <span className={`thread-status thread-status-${thread.status}`}>
          {thread.status === 'resolved' && thread.resolvedBy !== null
            ? `resolved by ${thread.resolvedBy}`
            : thread.status}
        </span>{' '}
        <span className="muted">
          started by {thread.author} · {thread.comments.length}{' '}
          {thread.comments.length === 1 ? 'comment' : 'comments'}
        </span>
        {thread.status === 'open' ? null : (
          <button type="button" aria-expanded={open} onClick={() => onExpanded(!open)}>
            {open ? 'Hide' : 'Show'} the conversation
          </button>
        )}
      </header>
      {showCode ? <WrittenOn thread={thread} /> : null}
      {open ? (
        <>
          <ThreadComments comments={thread.comments} />
          {replyDrafts.map((draft) => (
            <DraftCard
              key={draft.id}
              taskId={taskId}
              draft={draft}
              place={`a reply on ${place}`}
              editing={editingDrafts.has(draft.id)}
              onEditing={(editing) => onEditingDraft(draft.id, editing)}
            />
          ))}
          {replying ? (
            <CommentForm
              label={`Reply to the thread on ${place}`}
              submitLabel="Reply"
              busy={reply.isPending}
              error={reply.error === null ? null : errorInfo(reply.error).message}
              onSubmit={(body) => reply.mutate({ taskId, threadId: thread.id, body })}
              onCancel={() => onReplying(false)}
            />
          ) : null}
          <div className="comment-actions">
            {rights.comment && !replying ? (
              <button type="button" onClick={() => onReplying(true)}>
                Reply…
              </button>
            ) : null}
            {rights.resolve(thread) && thread.status === 'open' ? (
              <button
                type="button"
                disabled={busy}
                onClick={() => resolve.mutate({ taskId, threadId: thread.id })}
              >
                Resolve
              </button>
            ) : null}
            {rights.resolve(thread) && thread.status === 'resolved' ? (
              <button
                type="button"
                disabled={busy}
                onClick={() => reopen.mutate({ taskId, threadId: thread.id })}
              >
                Reopen
              </button>
            ) : null}
          </div>
          {failure === null ? null : (
            <p className="form-error" role="alert">
              {errorInfo(failure).message}
            </p>
          )}
        </>
      ) : null}
    </article>
  );
}

/** An outdated thread's code and the diff it was written on (hash, path and lines). */
function WrittenOn({ thread }: { readonly thread: ThreadView }) {
  const { writtenOn } = thread;
  return (
    <div className="written-on">
      {thread.outdatedReason === null ? null : (
        <p className="muted">Outdated: {thread.outdatedReason}.</p>
      )}
      <pre className="thread-code" aria-label={`The code of ${placeText(thread)}`}>
        {thread.lines.map((text, i) => (
          <span key={i} className="thread-code-line">
            <span className="thread-code-number" aria-hidden="true">
              {thread.startLine + i}
            </span>
            {text}
            {'\n'}
          </span>
        ))}
      </pre>
      <p className="muted">
        Written on the diff{' '}
        <abbr className="mono" title={writtenOn.sha256}>
          {shortHash(writtenOn.sha256)}
        </abbr>{' '}
        at{' '}
        <span className="mono">
          {writtenOn.path}:
          {writtenOn.startLine === writtenOn.endLine
            ? writtenOn.startLine
            : `${writtenOn.startLine}–${writtenOn.endLine}`}
        </span>
        {writtenOn.sha256 === thread.diffSha256 ? null : (
          <>
            ; last seen on{' '}
            <abbr className="mono" title={thread.diffSha256}>
              {shortHash(thread.diffSha256)}
            </abbr>
          </>
        )}
        .
      </p>
    </div>
  );
}
