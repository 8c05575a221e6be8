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
// Test ids are `classname.name` (surefire: `com.example.CartTest.appliesDiscount`; pytest:
// `tests.test_cart.TestCart.test_total`), or the name alone when the classname is missing or the
// same as the name (ctest); entity references are decoded, duplicates become `id #2`.
//
// A hand-rolled scanner instead of an XML library: the engine stays dependency-free and only tag
// names and a few attributes matter. Comments, CDATA and processing instructions are removed
// first, because captured test output inside them may contain `<failure>`-like text.
import { uniqueTests } from './test-list';
import { counts, fromTests, unparsed, type TestCase, type TestCounts } from './types';
import { num } from './text';

const tagPattern =
  /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const attributePattern = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const skippedStatuses = new Set(['notrun', 'disabled', 'skipped']);

interface Case {
  id: string;
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
  const cases: TestCase[] = [];
  let rootTotals: TestCounts | null = null;
  const suiteTotals: TestCounts[] = [];

  for (const match of text.matchAll(tagPattern)) {
    const [, closing, name = '', rawAttributes = '', selfClosing] = match;
    if (closing === '/') {
      if (name === 'testcase' && current !== null) cases.push(testCase(current));
      if (name === 'testcase') current = null;
      stack.pop();
      continue;
    }
    const attributes = parseAttributes(rawAttributes);
    if (name === 'testcase') {
      current = {
        id: caseId(attributes),
        failed: false,
        skipped: skippedStatuses.has(attributes.get('status') ?? ''),
      };
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
      cases.push(testCase(current));
      current = null;
    }
  }

  if (cases.length > 0) return fromTests(uniqueTests(cases));
  if (rootTotals !== null) return rootTotals;
  if (suiteTotals.length === 0) return unparsed();
  return counts(
    suiteTotals.reduce((sum, suite) => sum + suite.passed, 0),
    suiteTotals.reduce((sum, suite) => sum + suite.failed, 0),
    suiteTotals.reduce((sum, suite) => sum + suite.skipped, 0),
  );
}

function testCase({ id, failed, skipped }: Case): TestCase {
  return { id, status: failed ? 'failed' : skipped ? 'skipped' : 'passed' };
}

function caseId(attributes: ReadonlyMap<string, string>): string {
  const name = decode(attributes.get('name') ?? '');
  const classname = decode(attributes.get('classname') ?? '');
  return classname === '' || classname === name ? name : `${classname}.${name}`;
}

const entities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[a-z]+);/g, (whole, entity: string) => {
    if (!entity.startsWith('#')) return entities[entity] ?? whole;
    const code = entity.startsWith('#x')
      ? Number.parseInt(entity.slice(2), 16)
      : Number.parseInt(entity.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
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
