import { formatTime } from '../../format';
import type { ThreadComment } from '../../trpc/router-types';
import { CommentBody } from './comment-body';

const kindWords: Readonly<Record<ThreadComment['authorKind'], string | null>> = {
  person: null,
  agent: 'agent',
  fixer: 'fixer',
};

/** A thread's comments, oldest first: who (an agent's or the fixer's answer marked so), when, what. */
export function ThreadComments({ comments }: { readonly comments: readonly ThreadComment[] }) {
  return (
    <ol className="thread-comments">
      {comments.map((comment) => {
        const kind = kindWords[comment.authorKind];
        return (
          <li key={comment.id} className={`thread-comment comment-by-${comment.authorKind}`}>
            <p className="comment-meta">
              <strong>{comment.author}</strong>
              {kind === null ? null : (
                <span className={`author-kind author-kind-${comment.authorKind}`}>{kind}</span>
              )}{' '}
              <time className="muted" dateTime={comment.createdAt}>
                {formatTime(comment.createdAt)}
              </time>
            </p>
            <CommentBody body={comment.body} />
          </li>
        );
      })}
    </ol>
  );
}
