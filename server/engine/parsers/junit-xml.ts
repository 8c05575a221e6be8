// JUnit XML as written by pytest, surefire, vitest, jest-junit, ctest, meson, nextest, mocha's
// xunit reporter, … There is no single schema, so the file is read at the level they share:
// every <testcase> is one test; a <failure> or <error> child makes it failed, else a <skipped>
// child (or ctest's status="notrun"/"disabled") makes it skipped, else it passed. Counting cases
// avoids the reporters' disagreeing suite attributes (mocha puts failures under `errors`,
// ctest adds `disabled`, nested suites repeat their children's totals).
// Only when a report has no <testcase> at all are the `tests`/`failures`/`errors`/`skipped`
// attributes used: the root <testsuites> if it has them, else the sum of top-level <testsuite>s.
// Retried tests that ended green (surefire's <flakyFailure>, nextest's <flakyError>) passed.
//
// A hand-rolled scanner instead of an XML library: the engine stays dependency-free and only tag
// names and a few attributes matter. Comments, CDATA and processing instructions are removed
// first, because captured test output inside them may contain `<failure>`-like text.
import { counts, unparsed, type TestCounts } from './types';
import { num } from './text';

const tagPattern =
  /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const attributePattern = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const skippedStatuses = new Set(['notrun', 'disabled', 'skipped']);

interface Case {
  failed: boolean;
  skipped: boolean;
}

export function parseJUnitXml(xml: string): TestCounts {
  const text = xml
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '')
    .replace(/<[?!][\s\S]*?>/g, '');
  const stack: string[] = [];
  let current: Case | null = null;
  const tally = { passed: 0, failed: 0, skipped: 0 };
  let cases = 0;
  let rootTotals: TestCounts | null = null;
  const suiteTotals: TestCounts[] = [];

  for (const match of text.matchAll(tagPattern)) {
    const [, closing, name = '', rawAttributes = '', selfClosing] = match;
    if (closing === '/') {
      if (name === 'testcase' && current !== null) tally[outcome(current)] += 1;
      if (name === 'testcase') current = null;
      stack.pop();
      continue;
    }
    const attributes = parseAttributes(rawAttributes);
    if (name === 'testcase') {
      cases += 1;
      current = { failed: false, skipped: skippedStatuses.has(attributes.get('status') ?? '') };
    } else if (current !== null && stack.at(-1) === 'testcase') {
      if (name === 'failure' || name === 'error') current.failed = true;
      else if (name === 'skipped') current.skipped = true;
    } else if (name === 'testsuites' && stack.length === 0 && attributes.has('tests')) {
      rootTotals = totals(attributes);
    } else if (name === 'testsuite' && !stack.includes('testsuite')) {
      suiteTotals.push(totals(attributes));
    }
    if (selfClosing !== '/') stack.push(name);
    else if (name === 'testcase' && current !== null) {
      tally[outcome(current)] += 1;
      current = null;
    }
  }

  if (cases > 0) return counts(tally.passed, tally.failed, tally.skipped);
  if (rootTotals !== null) return rootTotals;
  if (suiteTotals.length === 0) return unparsed();
  return counts(
    suiteTotals.reduce((sum, suite) => sum + suite.passed, 0),
    suiteTotals.reduce((sum, suite) => sum + suite.failed, 0),
    suiteTotals.reduce((sum, suite) => sum + suite.skipped, 0),
  );
}

function outcome(testCase: Case): 'passed' | 'failed' | 'skipped' {
  if (testCase.failed) return 'failed';
  return testCase.skipped ? 'skipped' : 'passed';
}

function parseAttributes(raw: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of raw.matchAll(attributePattern)) {
    attributes.set(match[1] ?? '', match[2] ?? match[3] ?? '');
  }
  return attributes;
}

function totals(attributes: ReadonlyMap<string, string>): TestCounts {
  const value = (key: string): number => num(attributes.get(key));
  const failed = value('failures') + value('errors');
  const skipped = value('skipped') + value('disabled');
  return counts(Math.max(0, value('tests') - failed - skipped), failed, skipped);
}
