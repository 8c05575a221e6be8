import { cleanBody, cleanSubject } from '../engine/review';

/** The most of the problem statement a commit message keeps (the task holds all of it). */
export const maxMessageProblem = 4_000;
/** Fixed test ids named in `Tested-by`; the rest are counted. */
export const maxTestedIds = 10;

export interface CommitEvidence {
  /** Tests that passed in the run of this commit's tree. */
  readonly passed: number;
  /** Tests it fixed against the run before it, by id when the runner named them. */
  readonly fixed: readonly string[];
  readonly fixedCount: number;
}

export interface ExportMessageInput {
  readonly title: string;
  readonly problem: string;
  readonly issueUrl: string | null;
  /** For one commit of several: which iteration's winner it is. */
  readonly part: { readonly iteration: number; readonly hypothesis: string } | null;
  readonly evidence: CommitEvidence | null;
  readonly approval: { readonly reviewer: string; readonly sha256: string };
}

/**
 * A landed commit's message: the task's title (and, in a series, the iteration it comes from),
 * its problem statement, the issue, then trailers saying how it was tested and who approved which
 * exact diff. The same input always gives the same text.
 */
export function exportMessage(input: ExportMessageInput): string {
  const part =
    input.part === null ? '' : ` (iteration ${input.part.iteration}: ${input.part.hypothesis})`;
  const subject = cleanSubject(`${input.title}${part}`);
  const paragraphs: string[] = [];
  const problem = Array.from(input.problem.trim());
  if (problem.length > 0) {
    const cut = problem.length > maxMessageProblem;
    const text = problem.slice(0, maxMessageProblem).join('').trimEnd();
    paragraphs.push(
      cleanBody(
        cut
          ? `${text}\n\n[Cut here: the first ${maxMessageProblem} of ${problem.length} characters.]`
          : text,
      ),
    );
  }
  if (input.issueUrl !== null) paragraphs.push(`Issue: ${input.issueUrl}`);
  const trailers: string[] = [];
  if (input.evidence !== null) trailers.push(`Tested-by: Shadowbox <${testedBy(input.evidence)}>`);
  trailers.push(
    `Approved-by: ${oneLine(input.approval.reviewer)} (sha256 ${input.approval.sha256})`,
  );
  paragraphs.push(trailers.join('\n'));
  return `${[subject, ...paragraphs.filter((text) => text !== '')].join('\n\n')}\n`;
}

function testedBy(evidence: CommitEvidence): string {
  const named = evidence.fixed.slice(0, maxTestedIds).map(oneLine);
  const more = evidence.fixedCount - named.length;
  const fixed =
    evidence.fixedCount === 0
      ? ''
      : `, fixed: ${named.length === 0 ? String(evidence.fixedCount) : named.join(', ')}${named.length > 0 && more > 0 ? ` and ${more} more` : ''}`;
  return `${evidence.passed} passed${fixed}`;
}

/** A trailer is one line; a `>` would end `Shadowbox <…>` early. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/>/g, '›').trim();
}
