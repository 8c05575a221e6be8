import { verdictTone, verdictWord, type ReviewComment } from './model-review';

/**
 * What a reviewer model said about the diff shown: advice only. Its verdict is never an approval;
 * the Approve and Reject buttons are the only verdict that counts.
 */
export function ModelComments({ comments }: { readonly comments: readonly ReviewComment[] }) {
  if (comments.length === 0) return null;
  return (
    <section aria-labelledby="model-comments-heading" className="model-comments">
      <h3 id="model-comments-heading">Reviewer model (advisory)</h3>
      <p id="model-comments-note" className="hint">
        A model&apos;s opinion; it cannot approve. Only your verdict counts.
      </p>
      <ul aria-labelledby="model-comments-heading" aria-describedby="model-comments-note">
        {comments.map((comment, i) => (
          // Comments only accumulate, in order: the position is stable.
          <li key={i} className="model-comment">
            <p>
              <span className="mono">{comment.reviewer}</span> · verdict:{' '}
              <strong className={`model-verdict model-verdict-${verdictTone(comment.verdict)}`}>
                {verdictWord(comment.verdict)}
              </strong>
            </p>
            {comment.comment === '' ? (
              <p className="muted">No comment.</p>
            ) : (
              <p className="model-comment-text">{comment.comment}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
