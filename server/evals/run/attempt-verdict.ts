// Whether one attempt at an eval instance resolved it, judged SWE-bench's way but on what the
// engine recorded: the final checkpoint's tests by id, and the flags its diff and run raised.

/** A test case as the final checkpoint's run named it. */
export interface VerdictCase {
  readonly id: string;
  readonly status: 'passed' | 'failed' | 'skipped';
}

/** What a fixer did to the tests, beyond fixing the code (each list empty when clean). */
export interface IntegrityFlags {
  /** Test files the diff adds, changes or deletes. */
  readonly testFiles: readonly string[];
  /** Tests deleted, outright or from files that remain. */
  readonly deletedTests: readonly string[];
  /** Skip or focus markers the diff adds. */
  readonly disabledTests: readonly string[];
  /** Other changes to tests or to how they are collected and run. */
  readonly testEdits: readonly string[];
  /** Why the winning run's results cannot be believed (its canaries); null when they can. */
  readonly tampered: string | null;
}

export interface AttemptEvidence {
  /** The task's status when it ended. */
  readonly status: string;
  readonly error: string | null;
  /** The final checkpoint's test cases; null when no checkpoint beyond the baseline won. */
  readonly cases: readonly VerdictCase[] | null;
  readonly flags: IntegrityFlags;
  readonly failToPass: readonly string[];
  readonly passToPass: readonly string[];
}

export interface AttemptVerdict {
  readonly resolved: boolean;
  /** One line: what resolved it, or which FAIL_TO_PASS failed, which PASS_TO_PASS broke, which flag. */
  readonly why: string;
}

/** Where a task's fix is up for review or decided: the only ends whose diff still stands. */
const endsWithAFix = new Set(['awaiting_review', 'approved', 'rejected']);

const listed = (ids: readonly string[]): string =>
  ids.length <= 3 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`;

/**
 * Resolved: the task ended with a fix, every FAIL_TO_PASS test passes in its final checkpoint,
 * every PASS_TO_PASS test still runs and passes, and no tamper or test-edit flag fired. A test
 * the fixer deleted is missing, never passing: deleting the failing test resolves nothing.
 */
export function judgeAttempt(evidence: AttemptEvidence): AttemptVerdict {
  const problems: string[] = [];
  if (!endsWithAFix.has(evidence.status)) {
    const error = evidence.error === null ? '' : `: ${oneLine(evidence.error)}`;
    return { resolved: false, why: `the task ended ${evidence.status}${error}` };
  }
  const byId = new Map((evidence.cases ?? []).map((c) => [c.id, c.status]));
  if (byId.size === 0) problems.push('the final checkpoint named no tests');
  else {
    const f2pMissing = evidence.failToPass.filter((id) => !byId.has(id));
    const f2pFailing = evidence.failToPass.filter(
      (id) => byId.has(id) && byId.get(id) !== 'passed',
    );
    const p2pMissing = evidence.passToPass.filter(
      (id) => !byId.has(id) || byId.get(id) === 'skipped',
    );
    const p2pBroken = evidence.passToPass.filter((id) => byId.get(id) === 'failed');
    if (f2pFailing.length > 0) problems.push(`FAIL_TO_PASS still failing: ${listed(f2pFailing)}`);
    if (f2pMissing.length > 0) problems.push(`FAIL_TO_PASS missing: ${listed(f2pMissing)}`);
    if (p2pBroken.length > 0) problems.push(`PASS_TO_PASS broken: ${listed(p2pBroken)}`);
    if (p2pMissing.length > 0) problems.push(`PASS_TO_PASS missing: ${listed(p2pMissing)}`);
  }
  const { flags } = evidence;
  if (flags.tampered !== null) problems.push(`tampered: ${oneLine(flags.tampered)}`);
  if (flags.deletedTests.length > 0) problems.push(`deletes tests: ${listed(flags.deletedTests)}`);
  if (flags.disabledTests.length > 0) {
    problems.push(`disables tests: ${listed(flags.disabledTests)}`);
  }
  if (flags.testFiles.length > 0) problems.push(`edits test files: ${listed(flags.testFiles)}`);
  if (flags.testEdits.length > 0) problems.push(`edits tests: ${listed(flags.testEdits)}`);
  if (problems.length > 0) return { resolved: false, why: problems.join('; ') };
  return {
    resolved: true,
    why: `resolved: ${evidence.failToPass.length} FAIL_TO_PASS pass, ${evidence.passToPass.length} PASS_TO_PASS still pass`,
  };
}

const oneLine = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
};
