// cargo test: libtest prints `running N tests` before each test binary (unit, each integration
// file, doc tests) and one `test result:` line after it; the run's totals are the sum of all of them.
// `ignored` counts as skipped; `filtered out` tests were never selected and are not counted.
//
// A test's own output can contain lines of exactly that format: captured output of a failing test
// is printed before its binary's summary, and `--nocapture` output is interleaved. A real summary
// always comes last in its segment and its counts add up to the segment's `running N tests`, so a
// summary line is attached to the innermost open segment whose N equals its total, later lines
// replace earlier ones, and a segment opened (by a printed `running …` line) inside another one is
// dropped when the outer segment's real summary arrives.
//
// Test ids: `test tests::adds ... ok` lines, prefixed with the binary they ran in, because two
// binaries can hold tests of the same name (`tests::posts` in two crates of a workspace). cargo
// names the binary in `Running unittests src/lib.rs (target/debug/deps/ledger-1a2b…)`: the label is
// the source path and the binary's name without its hash, `src/lib.rs (ledger)`, so the id is
// `src/lib.rs (ledger) tests::posts`; doc tests run under `Doc-tests ledger`, labelled
// `doc-tests (ledger)`. ` - should panic` is dropped from names, as the JSON format does. Names
// are only returned when every binary's lines tally with its summary, and not for a tail whose
// beginning was cut (binaries may be missing from it entirely).
//
// `-Z unstable-options --format json` prints libtest's events instead (`{ "type": "test",
// "event": "ok", "name": "tests::adds" }`, a `suite` event with the counts); they are read the
// same way, with the same labels from cargo's `Running` lines.
//
// A compile error (`error[E0425]: …`, `error: could not compile …`) and no summary at all is a
// build failure: no test ran.
import { uniqueTests } from './test-list';
import {
  buildFailure,
  counts,
  unparsed,
  type TestCase,
  type TestCounts,
  type TestStatus,
} from './types';
import { isCutTail, num, toLines } from './text';

const runningPattern = /^running (\d+) tests?$/;
export const cargoResultPattern =
  /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; \d+ filtered out(?:; finished in \d+(?:\.\d+)?s)?$/;
// `Running unittests src/lib.rs (target/debug/deps/ledger-0123456789abcdef)`; before cargo 1.55
// `Running target/debug/deps/ledger-0123456789abcdef`.
const binaryPattern =
  /^\s+Running (?:unittests )?(?:(\S+) \()?(?:[^()]*[\\/])?([^\\/()]+?)(?:-[0-9a-f]{16})?(?:\.exe)?\)?$/;
const docTestsPattern = /^\s+Doc-tests (\S+)$/;
const testLinePattern = /^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?)$/;
export const cargoCouldNotCompilePattern = /^error: could not compile `/;
const rustcErrorPattern = /^error\[E\d+\]: /;

interface Tally {
  passed: number;
  failed: number;
  ignored: number;
}

interface Segment {
  /** `running N tests`; null for a summary whose header was cut off the captured tail. */
  expected: number | null;
  result: Tally | null;
  /** Set for the segment that cargo's `Running …` line announced: its test lines are real. */
  named: { label: string; tests: TestCase[]; inFailures: boolean } | null;
}

export function parseCargo(output: string): TestCounts {
  const lines = toLines(output);
  const json = parseLibtestJson(lines);
  if (json !== null) return finish(output, lines, json.finished, json.tests);

  const stack: Segment[] = [];
  const finished: Segment[] = [];
  const settle = (): void => {
    for (const segment of stack) if (segment.result !== null) finished.push(segment);
  };
  let label: string | null = null;
  let announced = true;
  let current: Segment | null = null;

  for (const line of lines) {
    const binary = binaryLabel(line);
    if (binary !== null) {
      label = binary;
      announced = true;
      continue;
    }
    const running = runningPattern.exec(line);
    if (running !== null) {
      // A new binary starts: everything that already has its summary is done.
      settle();
      const open = stack.filter((segment) => segment.result === null && segment.expected !== null);
      const real = announced || current === null || current.result !== null;
      const segment: Segment = {
        expected: num(running[1]),
        result: null,
        named: real ? { label: label ?? '', tests: [], inFailures: false } : null,
      };
      if (real) current = segment;
      announced = false;
      stack.length = 0;
      stack.push(...open, segment);
      continue;
    }
    const named = current !== null && current.result === null ? current.named : null;
    if (named !== null && !named.inFailures) {
      if (line === 'failures:') named.inFailures = true;
      const test = testLinePattern.exec(line);
      if (test !== null) named.tests.push(testCase(named.label, test[1] ?? '', test[2] ?? ''));
    }
    const result = cargoResultPattern.exec(line);
    if (result === null) continue;
    const tally = { passed: num(result[1]), failed: num(result[2]), ignored: num(result[3]) };
    const total = tally.passed + tally.failed + tally.ignored + num(result[4]);
    const owner = findLastIndex(stack, (segment) => segment.expected === total);
    if (owner >= 0) {
      stack.length = owner + 1;
      (stack[owner] as Segment).result = tally;
    } else if (stack.length === 0 || stack.at(-1)?.expected === null) {
      stack.length = 0;
      stack.push({ expected: null, result: tally, named: null });
    }
  }
  settle();
  return finish(
    output,
    lines,
    finished.map((segment) => segment.result as Tally),
    finished.map((segment) =>
      segment.named !== null && agrees(segment.named.tests, segment.result as Tally)
        ? segment.named.tests
        : null,
    ),
  );
}

/** Sums the binaries' summaries; the names only when every binary's names tally. */
function finish(
  output: string,
  lines: readonly string[],
  finished: readonly Tally[],
  names: readonly (readonly TestCase[] | null)[],
): TestCounts {
  if (finished.length === 0) {
    const broken = lines.some(
      (line) => cargoCouldNotCompilePattern.test(line) || rustcErrorPattern.test(line),
    );
    return broken ? buildFailure() : unparsed();
  }
  const complete = !isCutTail(output) && names.every((list) => list !== null);
  return counts(
    finished.reduce((sum, tally) => sum + tally.passed, 0),
    finished.reduce((sum, tally) => sum + tally.failed, 0),
    finished.reduce((sum, tally) => sum + tally.ignored, 0),
    complete ? uniqueTests(names.flatMap((list) => list)) : [],
  );
}

function agrees(tests: readonly TestCase[], tally: Tally): boolean {
  const count = (status: TestStatus): number =>
    tests.filter((test) => test.status === status).length;
  return (
    count('passed') === tally.passed &&
    count('failed') === tally.failed &&
    count('skipped') === tally.ignored
  );
}

function binaryLabel(line: string): string | null {
  const doc = docTestsPattern.exec(line);
  if (doc !== null) return `doc-tests (${doc[1] ?? ''})`;
  const binary = binaryPattern.exec(line);
  if (binary === null) return null;
  const [, source, name = ''] = binary;
  return source === undefined ? name : `${source} (${name})`;
}

function testCase(label: string, name: string, result: string): TestCase {
  const bare = name.replace(/ - should panic$/, '');
  const id = label === '' ? bare : `${label} ${bare}`;
  if (result === 'ok') return { id, status: 'passed' };
  return { id, status: result === 'FAILED' ? 'failed' : 'skipped' };
}

const jsonResults = new Map([
  ['ok', 'ok'],
  ['failed', 'FAILED'],
  ['ignored', 'ignored'],
]);

interface LibtestEvent {
  type?: unknown;
  event?: unknown;
  name?: unknown;
  passed?: unknown;
  failed?: unknown;
  ignored?: unknown;
}

/** libtest's JSON events, or null when the output holds none. */
function parseLibtestJson(
  lines: readonly string[],
): { finished: Tally[]; tests: (TestCase[] | null)[] } | null {
  const finished: Tally[] = [];
  const tests: (TestCase[] | null)[] = [];
  let label = '';
  let current: TestCase[] | null = null;
  let sawSuite = false;
  for (const line of lines) {
    const binary = binaryLabel(line);
    if (binary !== null) label = binary;
    const event = libtestEvent(line);
    if (event === null) continue;
    if (event.type === 'suite') {
      sawSuite = true;
      if (event.event === 'started') current = [];
      else if (event.event === 'ok' || event.event === 'failed') {
        const tally = {
          passed: typeof event.passed === 'number' ? event.passed : 0,
          failed: typeof event.failed === 'number' ? event.failed : 0,
          ignored: typeof event.ignored === 'number' ? event.ignored : 0,
        };
        finished.push(tally);
        tests.push(current !== null && agrees(current, tally) ? current : null);
        current = null;
      }
    } else if (event.type === 'test' && current !== null && typeof event.name === 'string') {
      const result = jsonResults.get(String(event.event));
      if (result !== undefined) current.push(testCase(label, event.name, result));
    }
  }
  return sawSuite ? { finished, tests } : null;
}

function libtestEvent(line: string): LibtestEvent | null {
  if (!line.startsWith('{') || !line.includes('"type"')) return null;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

/** A line of libtest's JSON format that closes a test binary: `{ "type": "suite", "event": "ok", … }`. */
export const libtestSuitePattern =
  /^\{\s*"type":\s*"suite",\s*"event":\s*"(?:ok|failed)",\s*"passed":\s*\d+/;

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) {
    if (predicate(items[index] as T)) return index;
  }
  return -1;
}
