// Generic TAP (Test Anything Protocol), e.g. Perl's Test::More, tape, `mocha --reporter tap`.
// Only top-level test points count: indented lines are subtests (rolled up into their parent's
// point) or YAML diagnostics. `ok` is a pass, `not ok` a failure; a `# SKIP` or `# TODO` directive
// makes the point skipped whatever its status, because a TODO failure is expected by definition.
//
// A plan (`1..N`) promising more points than were printed means the producer died or bailed out
// (`Bail out!`): the missing points count as failed, as a TAP harness reports such a file failed;
// a bail-out without a plan counts as one failure.
// TAP's counts come from the protocol itself: a test that prints `ok 5` to stdout is a test point
// by definition, so nothing can tell it apart.
//
// Test ids are the points' descriptions (`ok 1 - first passes` → `first passes`; mocha writes no
// dash), or `#N` for a point without one. A run with missing points names no tests: the missing
// ones have no names.
import { listOnly } from './test-list';
import { counts, unparsed, type TestCase, type TestCounts, type TestStatus } from './types';
import { isCutTail, num, toLines } from './text';

export const tapPointPattern = /^(not )?ok\b(?:\s+(\d+))?(.*)$/;
export const tapPlanPattern = /^1\.\.(\d+)\b/;
const directivePattern = /(?:^|[^\\])#\s*(?:skip|todo)\b/i;

export function parseTap(output: string): TestCounts {
  const tests: TestCase[] = [];
  let planned: number | null = null;
  let bailedOut = false;
  for (const line of toLines(output)) {
    if (line.startsWith('Bail out!')) bailedOut = true;
    const plan = tapPlanPattern.exec(line);
    if (plan !== null) {
      planned = num(plan[1]);
      continue;
    }
    const point = tapPointPattern.exec(line);
    if (point === null) continue;
    const rest = point[3] ?? '';
    const status: TestStatus = directivePattern.test(rest)
      ? 'skipped'
      : point[1] === undefined
        ? 'passed'
        : 'failed';
    tests.push({ id: description(rest) ?? `#${point[2] ?? tests.length + 1}`, status });
  }
  if (tests.length === 0 && planned === null && !bailedOut) return unparsed();
  const listed = listOnly(tests);
  const missing = Math.max(0, (planned ?? 0) - tests.length);
  // A bail-out always fails the run, even when no plan says how many points went missing.
  const lost = Math.max(missing, bailedOut ? 1 : 0);
  if (lost === 0) return isCutTail(output) ? { ...listed, tests: [] } : listed;
  return counts(listed.passed, listed.failed + lost, listed.skipped);
}

/** `- first passes # SKIP reason` → `first passes`; null when the point has no description. */
function description(rest: string): string | null {
  const match = /^\s*(?:-\s*)?(.*?)\s*(?:(?<!\\)#.*)?$/.exec(rest);
  const text = match?.[1] ?? '';
  return text === '' ? null : text;
}
