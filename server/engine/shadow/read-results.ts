// How a run's results are read, and the words that say so on the task. In order: a report the
// run wrote, whether Shadowbox added its reporter (machine-reporter.ts) or the command asked for
// one; else the console. A report is trusted only where the console agrees with it (report-trust),
// or, where the console shows no results, when the run's canaries check it (a report forged in
// advance cannot name them). The command's own report contradicted by its console is a forgery;
// an added one that disagrees is set aside (its reporter may count differently, e.g. vitest's
// unhandled errors) and the console is read, as it would have been without it.
import {
  checkReport,
  leafName,
  parseJUnitXml,
  parseTestOutput,
  sumTestCounts,
  type RunnerName,
  type TestCounts,
} from '../parsers';
import { parseJsJsonReport } from '../parsers/js-json-report';
import { parsePytestJUnit } from '../parsers/pytest-junit';
import { parseUnittestReport } from '../parsers/unittest-report';
import { buildStepFailed } from './build-step';
import type { Execution } from './executor';
import type { AddedReporter, AddedReportFormat } from './machine-reporter';

export interface ReadResults {
  readonly counts: TestCounts;
  /** Why the run is taken to have forged its results; null when it is not. */
  readonly forged: string | null;
  /** How the results were read, in words. */
  readonly readAs: string;
}

const reportNames: Readonly<Record<AddedReportFormat, string>> = {
  'pytest-junit': 'a JUnit report added to the command',
  'jest-json': "jest's JSON report, added to the command",
  'vitest-json': "vitest's JSON reporter, added to the command",
  'unittest-json': "Shadowbox's unittest runner, which runs the command's tests",
};

function parseAdded(format: AddedReportFormat, text: string, base: string): TestCounts {
  switch (format) {
    case 'pytest-junit':
      return parsePytestJUnit(text);
    case 'jest-json':
      return parseJsJsonReport(text, 'jest', base);
    case 'vitest-json':
      return parseJsJsonReport(text, 'vitest', base);
    case 'unittest-json':
      return parseUnittestReport(text);
  }
}

/** How a console reading went, in words. */
export function consoleReading(counts: TestCounts, source = 'the console'): string {
  if (!counts.parsed) return `could not be read from ${source}`;
  if (counts.buildFailed) return `from ${source}: the code did not build`;
  if (counts.tests.length > 0) return `by test id, from ${source}`;
  if (counts.failed === 0) return `by totals, from ${source} (no test failed)`;
  if (counts.failing !== undefined) {
    return `by the failing tests it names and the totals, from ${source}`;
  }
  return `by totals only, from ${source}: it names no tests`;
}

/**
 * Where the console names every failure but not every test (`pytest -q`), checkReport can only
 * compare totals: a report could then move a failure from a test it broke to one that failed
 * before. The failures it names must be the console's. Null when they are (or cannot be told).
 */
function sameFailures(report: TestCounts, text: TestCounts): string | null {
  if (text.failing === undefined) return null;
  const named = new Set(text.failing.map(leafName));
  const reported = report.tests.filter((t) => t.status === 'failed').map((t) => leafName(t.id));
  const differs = reported.length !== named.size || reported.some((id) => !named.has(id));
  return differs ? "the report's failing tests are not the ones the console names" : null;
}

export function readResults(options: {
  readonly runner: RunnerName | 'auto';
  readonly execution: Execution;
  /** A build step ran before the tests (build-step.ts). */
  readonly built: boolean;
  readonly output: string;
  readonly added: AddedReporter | null;
  /** The absolute directory the command ran in. */
  readonly base: string;
}): ReadResults {
  const { runner, execution, output, added } = options;
  if (options.built && buildStepFailed(execution.process.exitCode, output)) {
    const counts = { passed: 0, failed: 0, skipped: 0, parsed: true, tests: [], buildFailed: true };
    return { counts, forged: null, readAs: 'the build step failed: no test ran' };
  }
  const fromText = parseTestOutput(runner, output);
  const canaried = execution.canaried === true;
  let setAside = '';
  if (added?.kind === 'stream') {
    return {
      counts: fromText,
      forged: null,
      readAs: consoleReading(fromText, 'go test -json (added to the command)'),
    };
  }
  const text = added === null ? null : (execution.addedReports?.[0] ?? null);
  if (added !== null && text !== null) {
    const fromAdded = parseAdded(added.format, text, options.base);
    const check = checkReport(fromAdded, fromText);
    const name = reportNames[added.format];
    if (fromAdded.parsed && fromAdded.tests.length > 0) {
      const counts = { ...fromAdded, buildFailed: fromText.buildFailed };
      const failures = sameFailures(fromAdded, fromText);
      if (check.agrees && failures === null) {
        return { counts, forged: null, readAs: `by test id, from ${name}` };
      }
      if (!check.agrees && check.unchecked && canaried) {
        return {
          counts,
          forged: null,
          readAs: `by test id, from ${name} (its canaries checked it)`,
        };
      }
      setAside = ` (${check.agrees ? (failures ?? '') : check.reason}; it was set aside)`;
    }
  }
  const fromReports = sumTestCounts(...execution.reports.map(parseJUnitXml));
  if (fromReports.parsed) {
    if (runner === 'junit') {
      return {
        counts: fromReports,
        forged: null,
        readAs: consoleReading(fromReports, "the command's JUnit reports"),
      };
    }
    const check = checkReport(fromReports, fromText);
    const own = consoleReading(fromReports, "the command's JUnit report");
    if (check.agrees) return { counts: fromReports, forged: null, readAs: own };
    if (check.unchecked) {
      return canaried
        ? { counts: fromReports, forged: null, readAs: `${own} (its canaries checked it)` }
        : { counts: fromText, forged: null, readAs: consoleReading(fromText) };
    }
    return { counts: fromText, forged: check.reason, readAs: consoleReading(fromText) };
  }
  return { counts: fromText, forged: null, readAs: `${consoleReading(fromText)}${setAside}` };
}
