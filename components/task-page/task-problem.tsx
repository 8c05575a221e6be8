'use client';

import { useState } from 'react';
import { CommentBody } from '../review/conversation/comment-body';
import { problemIsLong } from './problem-fold';

/**
 * What the task is for: its problem (Markdown, shown with the conversation's renderer, so raw
 * HTML stays text and images are not fetched) and the issue it comes from. A long problem starts
 * folded so the status and the actions below it stay in view.
 */
export function TaskProblem({
  problem,
  issueUrl,
}: {
  readonly problem: string;
  readonly issueUrl: string | null;
}) {
  const long = problemIsLong(problem);
  const [open, setOpen] = useState(false);
  if (problem === '' && issueUrl === null) return null;
  const folded = long && !open;
  return (
    <section className="task-problem" aria-label="Problem">
      {issueUrl === null ? null : (
        <p className="task-issue">
          Issue:{' '}
          {/* https only (the server refuses others); never fetched, only followed by a person. */}
          <a href={issueUrl} target="_blank" rel="noopener noreferrer nofollow">
            {issueUrl}
          </a>
        </p>
      )}
      {problem === '' ? null : (
        <>
          <div
            id="task-problem-text"
            className={folded ? 'task-problem-text folded' : 'task-problem-text'}
          >
            <CommentBody body={problem} />
          </div>
          {long ? (
            <button
              type="button"
              className="link-button"
              aria-expanded={open}
              aria-controls="task-problem-text"
              onClick={() => setOpen(!open)}
            >
              {open ? 'Show less' : 'Show all'}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
