import { describe, expect, it } from 'vitest';
import { parseJUnitXml } from './index';

const ok = (passed: number, failed: number, skipped: number) => ({
  passed,
  failed,
  skipped,
  parsed: true,
  buildFailed: false,
});

describe('parseJUnitXml', () => {
  it('counts <testcase> children: failure and error fail, skipped skips', () => {
    const xml = `<?xml version="1.0"?>
<testsuites tests="99" failures="0">
  <testsuite name="a" tests="4">
    <testcase name="passes"/>
    <testcase name="fails"><failure message="x">boom</failure></testcase>
    <testcase name="errors"><error type="E"/></testcase>
    <testcase name="skips"><skipped/></testcase>
  </testsuite>
</testsuites>`;
    expect(parseJUnitXml(xml)).toMatchObject(ok(1, 2, 1));
  });

  it('is not fooled by markup inside CDATA or comments', () => {
    const xml = `<testsuite>
  <!-- <testcase name="commented"><failure/></testcase> -->
  <testcase name="a"><system-out><![CDATA[printed: a > b </system-out><failure message="fake"/>]]></system-out></testcase>
</testsuite>`;
    expect(parseJUnitXml(xml)).toMatchObject(ok(1, 0, 0));
  });

  it('treats a surefire rerun that ended green as passed', () => {
    const xml = `<testsuite><testcase name="flaky"><flakyFailure message="first try"/></testcase></testsuite>`;
    expect(parseJUnitXml(xml)).toMatchObject(ok(1, 0, 0));
  });

  it('falls back to the root <testsuites> attributes when there are no test cases', () => {
    const xml = `<testsuites tests="10" failures="2" errors="1" skipped="3"><testsuite tests="10"/></testsuites>`;
    expect(parseJUnitXml(xml)).toMatchObject(ok(4, 3, 3));
  });

  it('sums top-level <testsuite> attributes without counting nested suites twice', () => {
    const xml = `<testsuite tests="3" failures="1"><testsuite tests="3" failures="1"/></testsuite>
<testsuite tests="2" skipped="1" disabled="1"/>`;
    expect(parseJUnitXml(xml)).toMatchObject(ok(2, 1, 2));
  });

  it('reads single-quoted attributes and an empty report', () => {
    expect(parseJUnitXml(`<testsuites tests='0'/>`)).toMatchObject(ok(0, 0, 0));
  });

  it('reports parsed: false for anything that is not a JUnit report', () => {
    expect(parseJUnitXml('<html><body>nope</body></html>').parsed).toBe(false);
    expect(parseJUnitXml('').parsed).toBe(false);
  });
});
