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
import { counts, unparsed, type TestCounts } from './types';
import { num, toLines } from './text';

export const tapPointPattern = /^(not )?ok\b(?:\s+\d+)?(.*)$/;
export const tapPlanPattern = /^1\.\.(\d+)\b/;
const directivePattern = /(?:^|[^\\])#\s*(?:skip|todo)\b/i;

export function parseTap(output: string): TestCounts {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
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
    if (directivePattern.test(point[2] ?? '')) skipped += 1;
    else if (point[1] === undefined) passed += 1;
    else failed += 1;
  }
  const seen = passed + failed + skipped;
  if (seen === 0 && planned === null && !bailedOut) return unparsed();
  const missing = Math.max(0, (planned ?? 0) - seen);
  // A bail-out always fails the run, even when no plan says how many points went missing.
  return counts(passed, failed + Math.max(missing, bailedOut ? 1 : 0), skipped);
}
