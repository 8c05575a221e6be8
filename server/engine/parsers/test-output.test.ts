import { describe, expect, it } from 'vitest';
import { parseJsJsonReport } from './js-json-report';
import { boundedOutput, maxOutputLines, maxReportOutputBytes, OutputBudget } from './test-output';

describe("a failed test's output", () => {
  it("is kept from jest's and vitest's failureMessages, without colour, for failed tests only", () => {
    const report = JSON.stringify({
      testResults: [
        {
          name: '/ws/a.test.js',
          status: 'failed',
          assertionResults: [
            {
              ancestorTitles: ['math'],
              title: 'adds',
              status: 'failed',
              failureMessages: [
                '\u001b[31mExpected: 4\u001b[39m\nReceived: 3\n    at a.test.js:3:5\n',
              ],
            },
            { ancestorTitles: [], title: 'ok', status: 'passed', failureMessages: ['ignored'] },
          ],
        },
      ],
    });
    expect(parseJsJsonReport(report, 'vitest', '/ws').tests).toEqual([
      {
        id: 'a.test.js > math > adds',
        status: 'failed',
        output: ['Expected: 4', 'Received: 3', '    at a.test.js:3:5'],
      },
      { id: 'a.test.js > ok', status: 'passed' },
    ]);
  });

  it('is bounded in lines and bytes, and absent when empty', () => {
    const long = boundedOutput(Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n'));
    expect(long).toHaveLength(maxOutputLines + 1);
    expect(long?.at(-1)).toBe('…');
    expect(boundedOutput('x'.repeat(10_000))).toEqual(['x'.repeat(4096), '…']);
    expect(boundedOutput('\n\n')).toBeUndefined();
  });

  it("stops keeping output once a report's budget is spent", () => {
    const budget = new OutputBudget();
    const kept = Array.from({ length: 100 }, () => budget.take('y'.repeat(2000)));
    const count = kept.filter((k) => k !== undefined).length;
    expect(count).toBe(Math.floor(maxReportOutputBytes / 2001));
    expect(kept.at(-1)).toBeUndefined();
  });
});
