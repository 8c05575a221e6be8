/**
 * What reading test ids costs: realistic outputs of about 5,000 tests, synthesised in the formats
 * of pytest `-v`, cargo test, `go test -json`, jest `--verbose` and JUnit XML, each parsed several
 * times by the engine's own parsers. Reports the median time per run in ms per 1,000 test ids.
 * Every output is checked to give its full list first, so the figure never measures a fallback.
 * Usage: `tsx bench/setup/parse-cost.ts [RUNS]`.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseTestOutput, type RunnerName } from '../../server/engine/parsers';

export interface ParseCost {
  readonly runner: string;
  /** Test ids the parser returned for one run of the synthesised output. */
  readonly idsPerRun: number;
  /** Median parse time of that output, per 1,000 ids. */
  readonly msPer1000Ids: number;
}

interface Synthesised {
  readonly runner: RunnerName;
  readonly label: string;
  readonly output: string;
  readonly tests: number;
}

const testsPerOutput = 5_000;

/** The status of test number `n`: mostly passes, a few failures and skips, spread out. */
function statusOf(n: number): 'passed' | 'failed' | 'skipped' {
  if (n % 97 === 13) return 'failed';
  return n % 31 === 7 ? 'skipped' : 'passed';
}

function tally(count: number): { passed: number; failed: number; skipped: number } {
  const result = { passed: 0, failed: 0, skipped: 0 };
  for (let n = 0; n < count; n += 1) result[statusOf(n)] += 1;
  return result;
}

function pytestOutput(count: number): string {
  const lines = [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0',
    `collecting ... collected ${count} items`,
    '',
  ];
  const word = { passed: 'PASSED', failed: 'FAILED', skipped: 'SKIPPED (not on this platform)' };
  for (let n = 0; n < count; n += 1) {
    const file = `tests/unit/test_module_${Math.floor(n / 50)}.py`;
    const percent = String(Math.floor(((n + 1) * 100) / count)).padStart(3);
    const line = `${file}::TestCase::test_behaviour_${n}[param-${n % 7}] ${word[statusOf(n)]}`;
    lines.push(`${line.padEnd(72)} [${percent}%]`);
  }
  const { passed, failed, skipped } = tally(count);
  lines.push('=================================== FAILURES ===================================');
  for (let n = 0; n < count; n += 1) {
    if (statusOf(n) !== 'failed') continue;
    lines.push(
      `____ TestCase.test_behaviour_${n}[param-${n % 7}] ____`,
      '',
      '>   assert 1 == 2',
      '',
    );
  }
  lines.push(`===== ${failed} failed, ${passed} passed, ${skipped} skipped in 41.37s =====`);
  return lines.join('\n');
}

function cargoOutput(count: number): string {
  const binaries = 20;
  const lines = ['    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.21s'];
  for (let b = 0; b < binaries; b += 1) {
    const first = Math.floor((b * count) / binaries);
    const last = Math.floor(((b + 1) * count) / binaries);
    const hash = (0xa1b2c3d4 + b).toString(16).repeat(2);
    lines.push(
      `     Running tests/suite_${b}.rs (target/debug/deps/suite_${b}-${hash})`,
      '',
      `running ${last - first} tests`,
    );
    let passed = 0;
    let failed = 0;
    let ignored = 0;
    for (let n = first; n < last; n += 1) {
      const status = statusOf(n);
      const word = status === 'passed' ? 'ok' : status === 'failed' ? 'FAILED' : 'ignored';
      lines.push(`test module_${n % 40}::tests::case_${n} ... ${word}`);
      if (status === 'passed') passed += 1;
      else if (status === 'failed') failed += 1;
      else ignored += 1;
    }
    lines.push(
      '',
      `test result: ${failed > 0 ? 'FAILED' : 'ok'}. ${passed} passed; ${failed} failed; ${ignored} ignored; 0 measured; 0 filtered out; finished in 0.31s`,
      '',
    );
  }
  return lines.join('\n');
}

function goJsonOutput(count: number): string {
  const lines: string[] = [];
  const packages = 25;
  const perPackage = count / packages;
  for (let p = 0; p < packages; p += 1) {
    const pkg = `example.com/service/internal/pkg${p}`;
    const event = (action: string, test?: string, extra: Record<string, unknown> = {}): string =>
      JSON.stringify({
        Time: '2026-12-01T13:10:37.441447518Z',
        Action: action,
        Package: pkg,
        ...(test === undefined ? {} : { Test: test }),
        ...extra,
      });
    let failed = false;
    // Each parent test reports once and holds four subtests: five ids per group.
    for (let g = 0; g < perPackage / 5; g += 1) {
      const base = p * perPackage + g * 5;
      const parent = `TestFeature${g}`;
      lines.push(
        event('run', parent),
        event('output', parent, { Output: `=== RUN   ${parent}\n` }),
      );
      let parentFailed = false;
      for (let s = 1; s <= 4; s += 1) {
        const name = `${parent}/case_${s}`;
        const status = statusOf(base + s);
        lines.push(event('run', name), event('output', name, { Output: `=== RUN   ${name}\n` }));
        const action = status === 'passed' ? 'pass' : status === 'failed' ? 'fail' : 'skip';
        parentFailed ||= action === 'fail';
        lines.push(event(action, name, { Elapsed: 0 }));
      }
      failed ||= parentFailed;
      lines.push(event(parentFailed ? 'fail' : 'pass', parent, { Elapsed: 0.01 }));
    }
    lines.push(event(failed ? 'fail' : 'pass', undefined, { Elapsed: 0.2 }));
  }
  return lines.join('\n');
}

function jestOutput(count: number): string {
  const lines: string[] = [];
  const files = 100;
  const perFile = count / files;
  const symbol = { passed: '✓', failed: '✕', skipped: '○ skipped' };
  for (let f = 0; f < files; f += 1) {
    let failing = false;
    for (let t = 0; t < perFile; t += 1) failing ||= statusOf(f * perFile + t) === 'failed';
    lines.push(
      `${failing ? 'FAIL' : 'PASS'} src/feature${f}/feature${f}.test.ts`,
      `  feature ${f}`,
    );
    for (let t = 0; t < perFile; t += 1) {
      const n = f * perFile + t;
      if (t % 10 === 0) lines.push(`    group ${t / 10}`);
      const duration = statusOf(n) === 'skipped' ? '' : ` (${n % 13} ms)`;
      lines.push(`      ${symbol[statusOf(n)]} handles case ${n}${duration}`);
    }
    lines.push('');
  }
  const { passed, failed, skipped } = tally(count);
  lines.push(
    `Test Suites: ${files} passed, ${files} total`,
    `Tests:       ${failed} failed, ${skipped} skipped, ${passed} passed, ${count} total`,
    'Snapshots:   0 total',
    'Time:        12.41 s',
  );
  return lines.join('\n');
}

function junitOutput(count: number): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites tests="${count}">`];
  const suites = 50;
  const perSuite = count / suites;
  for (let s = 0; s < suites; s += 1) {
    lines.push(`  <testsuite name="com.example.module${s}.ServiceTest" tests="${perSuite}">`);
    for (let t = 0; t < perSuite; t += 1) {
      const n = s * perSuite + t;
      const open = `    <testcase name="handlesCase${n}" classname="com.example.module${s}.ServiceTest" time="0.00${n % 9}"`;
      const status = statusOf(n);
      if (status === 'passed') lines.push(`${open}/>`);
      else if (status === 'skipped') lines.push(`${open}>`, '      <skipped/>', '    </testcase>');
      else {
        lines.push(
          `${open}>`,
          `      <failure message="expected: &lt;1&gt; but was: &lt;2&gt;"><![CDATA[org.opentest4j.AssertionFailedError: expected: <1> but was: <2>`,
          `	at com.example.module${s}.ServiceTest.handlesCase${n}(ServiceTest.java:${n % 300})]]></failure>`,
          '    </testcase>',
        );
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n');
}

function synthesise(): Synthesised[] {
  const count = testsPerOutput;
  return [
    { runner: 'pytest', label: 'pytest -v', output: pytestOutput(count), tests: count },
    { runner: 'cargo', label: 'cargo test', output: cargoOutput(count), tests: count },
    { runner: 'go', label: 'go test -json', output: goJsonOutput(count), tests: count },
    { runner: 'jest', label: 'jest --verbose', output: jestOutput(count), tests: count },
    { runner: 'junit', label: 'junit xml', output: junitOutput(count), tests: count },
  ];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/**
 * Parses each synthesised output `runs` times after one untimed warm-up run and reports the median
 * cost per 1,000 ids. Throws when a parser does not name every test of its output.
 */
export async function measureParseCost(options: { runs?: number } = {}): Promise<ParseCost[]> {
  const runs = options.runs ?? 7;
  if (!Number.isInteger(runs) || runs < 1) {
    throw new RangeError(`measureParseCost runs must be a positive integer, got ${String(runs)}`);
  }
  const results: ParseCost[] = [];
  for (const { runner, label, output, tests } of synthesise()) {
    const first = parseTestOutput(runner, output);
    if (first.tests.length !== tests) {
      throw new Error(`${label}: the parser named ${first.tests.length} of ${tests} tests`);
    }
    const samples: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const start = performance.now();
      parseTestOutput(runner, output);
      samples.push(performance.now() - start);
      // Yield between runs: the caller (a bench runner) may have timers of its own to serve.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const ms = median(samples);
    results.push({
      runner: label,
      idsPerRun: first.tests.length,
      msPer1000Ids: Math.round((ms / first.tests.length) * 1000 * 1000) / 1000,
    });
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  const results = await measureParseCost(runs === undefined ? {} : { runs });
  for (const { runner, idsPerRun, msPer1000Ids } of results) {
    console.log(
      `${runner.padEnd(16)} ${String(idsPerRun).padStart(6)} ids  ${msPer1000Ids} ms per 1,000 ids`,
    );
  }
  console.log(JSON.stringify(results));
}
