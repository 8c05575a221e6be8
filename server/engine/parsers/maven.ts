// Maven Surefire's console output (`mvn test`, `./mvnw verify`). Each module's test run starts
// with ` T E S T S`, prints one line per test class,
//   `Tests run: 4, Failures: 1, Errors: 1, Skipped: 1, Time elapsed: 0.03 s <<< FAILURE! -- in a.CartTest`
// and closes with `Results:` and the module's total, `Tests run: 6, Failures: 1, Errors: 1,
// Skipped: 1` (`, Flakes: 1` with reruns). A multi-module build repeats this per module, so the
// run's counts are the sum of the modules' totals; a module whose total is missing (its forked VM
// died) counts its class lines instead, and never both.
//
// Decisions: failures and errors count as failed, skipped as skipped, the rest of `Tests run` as
// passed (a flaky test passed on a rerun). `COMPILATION ERROR` (or a `Compilation failure` of the
// compiler plugin) is a build failure: the module's tests never ran; other modules' tests still
// count. `No tests to run.` (or `Tests are skipped.`) without any test run is zero tests.
//
// Test ids are `package.Class.method`, as surefire writes them into its JUnit XML reports, from the
// per-test lines `a.CartTest.appliesDiscount -- Time elapsed: 0.008 s <<< FAILURE!` (surefire 3;
// 2.x: `appliesDiscount(a.CartTest)  Time elapsed: 0.008 sec  <<< FAILURE!`). By default surefire
// prints such lines only for failures and errors (the `Results:` list repeats them with the simple
// class name); passing and skipped tests are named only with `-Dsurefire.reportFormat=plain`
// (a skipped JUnit 5 test then as `a.CartTest skipped`), so only such runs have a complete list.
import { withTests } from './test-list';
import { buildFailure, counts, unparsed, type TestCase, type TestCounts } from './types';
import { isCutTail, num, toLines } from './text';

const levelPrefix = /^\[(?:INFO|ERROR|WARNING|WARN|DEBUG)\] ?/;
/** Lines only Maven prints: its closing `[INFO] BUILD SUCCESS` and surefire's summaries. */
export const mavenSignaturePattern =
  /^\[INFO\] BUILD (?:SUCCESS|FAILURE)$|^\[(?:INFO|ERROR|WARNING)\] Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+/;
const testsHeaderPattern = /^\s*T E S T S\s*$/;
const resultsPattern = /^Results ?:\s*$/;
const totalPattern =
  /^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?\s*$/;
const classPattern =
  /^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?, Time elapsed: .*(?:--|-) in \S+$/;
const testPattern = /^(\S+) -- Time elapsed: [\d.,]+ s(?: <<< (FAILURE|ERROR)!)?$/;
const legacyTestPattern =
  /^(\S+)\(([\w.$]+)\)\s+Time elapsed: [\d.,]+ (?:s|sec)(?:\s+<<< (FAILURE|ERROR)!)?$/;
const skippedPattern = /^([\w$]+(?:\.[\w$]+)+(?:\.\S+)?) skipped$/;
const compilationErrorPattern = /^COMPILATION ERROR\s*:?\s*$/;
const compilationFailurePattern =
  /^Failed to execute goal \S+maven-compiler-plugin\S*.*Compilation failure/;
const noTestsPattern = /^(?:No tests to run\.|Tests are skipped\.)$/;

interface Module {
  total: [number, number, number, number] | null;
  classes: [number, number, number, number];
  tests: TestCase[];
}

export function parseMaven(output: string): TestCounts {
  const lines = toLines(output).map((line) => line.replace(levelPrefix, ''));
  const modules: Module[] = [];
  let current: Module | null = null;
  let inResults = false;
  let buildFailed = false;
  let noTests = false;

  for (const line of lines) {
    if (compilationErrorPattern.test(line) || compilationFailurePattern.test(line)) {
      buildFailed = true;
    }
    if (noTestsPattern.test(line)) noTests = true;
    if (testsHeaderPattern.test(line)) {
      current = { total: null, classes: [0, 0, 0, 0], tests: [] };
      modules.push(current);
      inResults = false;
      continue;
    }
    if (current === null) continue;
    if (resultsPattern.test(line)) {
      inResults = true;
      continue;
    }
    if (inResults) {
      const total = totalPattern.exec(line);
      if (total !== null && current.total === null) current.total = numbers(total);
      continue;
    }
    const perClass = classPattern.exec(line);
    if (perClass !== null) {
      const values = numbers(perClass);
      current.classes = current.classes.map(
        (sum, at) => sum + (values[at] ?? 0),
      ) as Module['classes'];
      continue;
    }
    const test = namedTest(line);
    if (test !== null) current.tests.push(test);
  }

  if (modules.length === 0) {
    if (buildFailed) return buildFailure();
    return noTests ? counts(0, 0, 0) : unparsed();
  }
  let [run, failures, errors, skipped] = [0, 0, 0, 0];
  for (const module of modules) {
    const [r, f, e, s] = module.total ?? module.classes;
    run += r;
    failures += f;
    errors += e;
    skipped += s;
  }
  const failed = failures + errors;
  const summary = {
    ...counts(Math.max(0, run - failed - skipped), failed, skipped),
    buildFailed,
  };
  // Per-module totals cannot show that a cut tail lost whole modules.
  if (isCutTail(output)) return summary;
  return withTests(
    summary,
    modules.flatMap((module) => module.tests),
  );
}

function namedTest(line: string): TestCase | null {
  const modern = testPattern.exec(line);
  if (modern !== null) {
    return { id: modern[1] ?? '', status: modern[2] === undefined ? 'passed' : 'failed' };
  }
  const legacy = legacyTestPattern.exec(line);
  if (legacy !== null) {
    const id = `${legacy[2] ?? ''}.${legacy[1] ?? ''}`;
    return { id, status: legacy[3] === undefined ? 'passed' : 'failed' };
  }
  const skipped = skippedPattern.exec(line);
  return skipped === null ? null : { id: skipped[1] ?? '', status: 'skipped' };
}

function numbers(match: RegExpExecArray): [number, number, number, number] {
  return [num(match[1]), num(match[2]), num(match[3]), num(match[4])];
}
