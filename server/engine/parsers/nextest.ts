// cargo nextest: one `Summary [ 1.234s] N tests run: …` line at the end of the run, e.g.
// `8/10 tests run: 5 passed (1 slow, 1 flaky), 2 failed, 1 exec failed, 1 timed out, 2 skipped`.
// Failed, exec failed and timed out are failures; flaky tests passed on a retry and count as passed
// (the parenthesised details are refinements of a count, never extra tests). Skipped includes
// tests filtered out and `#[ignore]`d ones: nextest does not tell them apart. Tests not run because
// the run was cancelled appear in no count.
//
// Captured output of failing tests (printed before the summary) may hold `test result:` lines and
// even a copy of a summary line; the last summary line is nextest's own.
//
// Test ids are nextest's own pair, binary id and test name: `mixed::integration integration_fails`,
// from the status lines before the summary (`PASS [ 0.004s] (1/10) mixed tests::adds`; the lines
// after it repeat the failures). A test that was retried reports several times; its last line
// stands. Skipped tests get no line unless `--status-level skip` asks for it, so a run with skips
// usually has no complete list.
import { withTests } from './test-list';
import { counts, unparsed, type TestCounts, type TestStatus } from './types';
import { countParts, get, lastIndexMatching, toLines } from './text';

export const nextestSummaryPattern =
  /^\s*Summary \[\s*\d+(?:\.\d+)?s\] (?:\d+\/)?\d+ tests? run: (.*)$/;
const statusPattern =
  /^\s*(PASS|FAIL|FLAKY(?: \d+\/\d+)?|TRY \d+ (?:PASS|FAIL)|TIMEOUT|EXEC FAIL|SKIP|LEAK|LEAK-FAIL|SIG[A-Z]+|ABORT) \[[\s\d.s]*\] (?:\(\d+\/\d+\) )?(\S+ \S.*)$/;

export function parseNextest(output: string): TestCounts {
  const lines = toLines(output);
  const index = lastIndexMatching(lines, nextestSummaryPattern);
  if (index < 0) return unparsed();
  const match = nextestSummaryPattern.exec(lines[index] ?? '');
  const detail = (match?.[1] ?? '').split(';')[0] ?? '';
  const parts = countParts(detail.replace(/\([^)]*\)/g, ''), /,/);
  const summary = counts(
    get(parts, 'passed'),
    get(parts, 'failed', 'exec failed', 'timed out'),
    get(parts, 'skipped'),
  );
  const byId = new Map<string, TestStatus>();
  for (const line of lines.slice(0, index)) {
    const status = statusPattern.exec(line);
    if (status === null) continue;
    const id = (status[2] ?? '').trimEnd();
    byId.delete(id); // a retry's final line moves the test to where it finished
    byId.set(id, statusOf(status[1] ?? ''));
  }
  return withTests(
    summary,
    [...byId].map(([id, status]) => ({ id, status })),
  );
}

function statusOf(word: string): TestStatus {
  if (word === 'SKIP') return 'skipped';
  if (word === 'PASS' || word === 'LEAK' || word.startsWith('FLAKY') || word.endsWith(' PASS')) {
    return 'passed';
  }
  return 'failed';
}
