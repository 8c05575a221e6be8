import { describe, expect, it } from 'vitest';
import { formatPatchMail } from '../review/patch-mail';
import { maxBodyProblem, reviewMessage } from './review-message';
import { noFailures } from './step-values';

const task = {
  title: 'mean() floors the average of integers',
  problem: '',
  issueUrl: null,
  iterationCount: 2,
  testCommand: ['pytest', '-q'],
};

const diff = Buffer.from(
  'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-a\n+b\n',
);

describe('reviewMessage', () => {
  it("puts the task's title in the mail's subject line and the evidence in its body", () => {
    const message = reviewMessage(task, 't1', noFailures);
    expect(message).toEqual({
      subject: 'mean() floors the average of integers',
      body: 'Found by Shadowbox (task t1) in 2 iteration(s); tested with: pytest -q',
    });
    const mail = formatPatchMail({ diff, ...message, date: new Date(0) }).toString();
    expect(mail).toContain('\nSubject: [PATCH] mean() floors the average of integers\n');
    expect(mail).toContain('\n\nFound by Shadowbox (task t1) in 2 iteration(s)');
  });

  it('marks a partial fix after the title, with the tests left by name or by count', () => {
    const named = reviewMessage(task, 't1', { ids: ['test_a', 'test_b'], count: 2 });
    expect(named.subject).toBe('mean() floors the average of integers (partial: 2 still failing)');
    expect(named.body).toContain('\n\nStill failing, as at the baseline:\n  test_a\n  test_b');
    const counted = reviewMessage(task, 't1', { ids: [], count: 3 });
    expect(counted.body).toContain('\n\n3 test(s) still failing, as at the baseline.');
  });

  it('clips a long title so that the partial mark survives the one-line subject', () => {
    const long = reviewMessage({ ...task, title: `${'x'.repeat(300)}\nsecond line` }, 't1', {
      ids: [],
      count: 1,
    });
    expect(long.subject).toBe(`${'x'.repeat(150)}... (partial: 1 still failing)`);
    const mail = formatPatchMail({ diff, ...long, date: new Date(0) }).toString();
    expect(mail).toContain('(partial: 1 still failing)\nMIME-Version');
  });

  it('opens the body with the problem statement, then the evidence, then the issue link', () => {
    const message = reviewMessage(
      {
        ...task,
        problem: '\n## Steps\n\nmean([1, 2]) returns 1.\n\n---\nExpected 1.5.\n',
        issueUrl: 'https://example.com/issues/7',
      },
      't1',
      noFailures,
    );
    expect(message.body).toBe(
      [
        '## Steps\n\nmean([1, 2]) returns 1.\n\n---\nExpected 1.5.',
        'Found by Shadowbox (task t1) in 2 iteration(s); tested with: pytest -q',
        'Issue: https://example.com/issues/7',
      ].join('\n\n'),
    );
    // A Markdown rule in the problem must not end the message for `git am` (the mail indents it).
    const mail = formatPatchMail({ diff, ...message, date: new Date(0) }).toString();
    expect(mail).toContain('\n ---\nExpected 1.5.\n');
  });

  it('cuts a long problem statement and says so', () => {
    const problem = `${'é'.repeat(maxBodyProblem)}TAIL`;
    const { body } = reviewMessage({ ...task, problem }, 't1', noFailures);
    expect(body).not.toContain('TAIL');
    expect(body.startsWith('é'.repeat(maxBodyProblem))).toBe(true);
    expect(body).toContain(
      `[The problem statement is cut here: the first ${maxBodyProblem} of ${maxBodyProblem + 4} characters; the task holds all of it.]`,
    );
  });
});
