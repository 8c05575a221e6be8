import { describe, expect, it } from 'vitest';
import { exportMessage, maxTestedIds } from './export-message';

const approval = { reviewer: 'rita', sha256: 'a'.repeat(64) };

describe('exportMessage', () => {
  it('writes title, problem, issue, then Tested-by and Approved-by trailers', () => {
    expect(
      exportMessage({
        title: 'Mean rounds down',
        problem: 'mean([1, 2]) gives 1.\n\nIt should give 1.5.',
        issueUrl: 'https://example.com/issues/7',
        part: null,
        evidence: { passed: 4, fixed: ['test_calc.py::test_mean'], fixedCount: 1 },
        approval,
      }),
    ).toBe(
      [
        'Mean rounds down',
        '',
        'mean([1, 2]) gives 1.',
        '',
        'It should give 1.5.',
        '',
        'Issue: https://example.com/issues/7',
        '',
        'Tested-by: Shadowbox <4 passed, fixed: test_calc.py::test_mean>',
        `Approved-by: rita (sha256 ${'a'.repeat(64)})`,
        '',
      ].join('\n'),
    );
  });

  it('names the iteration in a series, and keeps the trailers when there is no problem', () => {
    expect(
      exportMessage({
        title: 'Fix it',
        problem: '  ',
        issueUrl: null,
        part: { iteration: 2, hypothesis: 'float-mean' },
        evidence: null,
        approval,
      }),
    ).toBe(`Fix it (iteration 2: float-mean)\n\nApproved-by: rita (sha256 ${'a'.repeat(64)})\n`);
  });

  it('indents problem lines git am would read as the patch, and counts fixed ids past the cap', () => {
    const ids = Array.from({ length: maxTestedIds + 3 }, (_, i) => `t${i}`);
    const message = exportMessage({
      title: 'T',
      problem: 'before\n---\ndiff --git a/x b/x\nFrom: someone',
      issueUrl: null,
      part: null,
      evidence: { passed: 20, fixed: ids, fixedCount: ids.length },
      approval,
    });
    expect(message).toContain('before\n ---\n diff --git a/x b/x\n From: someone');
    expect(message).toContain(`fixed: ${ids.slice(0, maxTestedIds).join(', ')} and 3 more>`);
  });

  it('counts fixed tests a runner did not name, and keeps a trailer on one line', () => {
    const message = exportMessage({
      title: 'T',
      problem: '',
      issueUrl: null,
      part: null,
      evidence: { passed: 3, fixed: [], fixedCount: 2 },
      approval: { reviewer: 'rita\n(token:x)', sha256: 'b'.repeat(64) },
    });
    expect(message).toContain('Tested-by: Shadowbox <3 passed, fixed: 2>');
    expect(message).toContain(`Approved-by: rita (token:x) (sha256 ${'b'.repeat(64)})`);
  });
});
