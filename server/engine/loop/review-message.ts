import type { LoopTask } from './loop-ports';
import type { Failures } from './step-values';

// The patch mail's subject and body: what the task is for, then how Shadowbox found the change.

/** The most of the title kept in the subject, so a partial fix's mark is never clipped away
 * (cut with an ASCII "...": the subject of an ASCII title stays readable, not encoded). */
export const maxSubjectTitle = 150;
/** The most of the problem statement kept in the body (the full text stays on the task). */
export const maxBodyProblem = 4_000;

/** By code point, so a cut never splits a character. */
function clip(text: string, max: number): { text: string; cut: boolean } {
  const chars = Array.from(text);
  return chars.length <= max
    ? { text, cut: false }
    : { text: chars.slice(0, max).join('').trimEnd(), cut: true };
}

/**
 * `Subject: [PATCH] <title>` (the mail builder adds the prefix); a partial fix says so after the
 * title. The body opens with the problem statement, then the evidence and the issue link.
 */
export function reviewMessage(
  task: Pick<LoopTask, 'title' | 'problem' | 'issueUrl' | 'iterationCount' | 'testCommand'>,
  taskId: string,
  left: Failures,
): { subject: string; body: string } {
  const partial = left.count > 0;
  const title = clip(task.title.replace(/\s+/g, ' ').trim(), maxSubjectTitle);
  const subject = `${title.text}${title.cut ? '...' : ''}${partial ? ` (partial: ${left.count} still failing)` : ''}`;

  const sections: string[] = [];
  const problem = clip(task.problem.trim(), maxBodyProblem);
  if (problem.text !== '') {
    sections.push(
      problem.cut
        ? `${problem.text}\n\n[The problem statement is cut here: the first ${maxBodyProblem} of ${Array.from(task.problem.trim()).length} characters; the task holds all of it.]`
        : problem.text,
    );
  }
  sections.push(
    `Found by Shadowbox (task ${taskId}) in ${task.iterationCount} iteration(s); tested with: ${task.testCommand.join(' ')}`,
  );
  if (partial) {
    sections.push(
      left.ids.length === 0
        ? `${left.count} test(s) still failing, as at the baseline.`
        : `Still failing, as at the baseline:\n${left.ids.map((id) => `  ${id}`).join('\n')}`,
    );
  }
  if (task.issueUrl !== null) sections.push(`Issue: ${task.issueUrl}`);
  return { subject, body: sections.join('\n\n') };
}
