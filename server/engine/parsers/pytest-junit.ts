// pytest's JUnit report, as Shadowbox adds it (`--junitxml=… -o junit_family=xunit1`), read with
// pytest's node ids: xunit1 gives each case its `file` (relative to the rootdir, as node ids are)
// besides `classname` (`tests.test_a.TestX`) and `name` (`test_y[1]`). The id is then the one the
// console prints, `tests/test_a.py::TestX::test_y[1]`, so a run read from its report and one read
// from its console (`-v`, `-rA`, the `FAILED` lines of `-q`) name the same tests alike.
import { parseJUnitXml } from './junit-xml';
import type { TestCase, TestCounts } from './types';

const casePattern = /<testcase\b([^>]*)>/g;
const attribute = (raw: string, name: string): string | null => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(raw);
  return match === null ? null : (match[1] ?? '');
};

const decode = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** `classname.name` (how parseJUnitXml names a case) → pytest's node id, from the case's file. */
function nodeIds(xml: string): Map<string, string> {
  const ids = new Map<string, string>();
  for (const match of xml.matchAll(casePattern)) {
    const raw = match[1] ?? '';
    const file = attribute(raw, 'file');
    const classname = decode(attribute(raw, 'classname') ?? '');
    const name = decode(attribute(raw, 'name') ?? '');
    if (file === null || name === '') continue;
    const module = decode(file).replace(/\.py$/, '').replace(/[\\/]/g, '.');
    // What follows the module in the class name are the test's classes.
    const classes = classname.startsWith(module) ? classname.slice(module.length) : null;
    if (classes === null || (classes !== '' && !classes.startsWith('.'))) continue;
    const parts = [decode(file), ...classes.split('.').filter((c) => c !== ''), name];
    ids.set(
      classname === '' || classname === name ? name : `${classname}.${name}`,
      parts.join('::'),
    );
  }
  return ids;
}

export function parsePytestJUnit(xml: string): TestCounts {
  const counts = parseJUnitXml(xml);
  if (counts.tests.length === 0) return counts;
  const ids = nodeIds(xml);
  // `id #2` (a duplicate, e.g. a teardown error after a pass) keeps its suffix on the node id.
  const renamed: TestCase[] = counts.tests.map((t) => {
    const suffix = / #\d+$/.exec(t.id)?.[0] ?? '';
    const id = ids.get(suffix === '' ? t.id : t.id.slice(0, -suffix.length));
    return id === undefined ? t : { id: `${id}${suffix}`, status: t.status };
  });
  return { ...counts, tests: renamed };
}
