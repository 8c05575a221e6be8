import { describe, expect, it } from 'vitest';
import type { Execution } from './executor';
import { readResults } from './read-results';

const execution = (
  reports: { added?: string | null; own?: string[] } = {},
  canaried = false,
): Execution => ({
  process: {
    exitCode: 1,
    signal: null,
    timedOut: false,
    cancelled: false,
    durationMs: 1,
    spawnError: null,
    output: { text: '', truncated: false },
  } as unknown as Execution['process'],
  reports: reports.own ?? [],
  ...(reports.added === undefined ? {} : { addedReports: [reports.added] }),
  problem: null,
  canaried,
});

const pytestQ = [
  '.F.',
  '=========================== short test summary info ============================',
  'FAILED t.py::test_b - assert 1 == 2',
  '1 failed, 2 passed in 0.03s',
].join('\n');

const junit = (failed: string[], passed: string[]) =>
  `<testsuites><testsuite>${[
    ...failed.map((n) => `<testcase classname="t" name="${n}" file="t.py"><failure/></testcase>`),
    ...passed.map((n) => `<testcase classname="t" name="${n}" file="t.py"/>`),
  ].join('')}</testsuite></testsuites>`;

const added = { kind: 'file', format: 'pytest-junit', path: '.shadowbox/reports/x.xml' } as const;

describe('readResults', () => {
  it('reads an added report the console agrees with, by test id', () => {
    const read = readResults({
      runner: 'pytest',
      execution: execution({ added: junit(['test_b'], ['test_a', 'test_c']) }),
      built: false,
      output: pytestQ,
      added,
      base: '/ws',
    });
    expect(read.readAs).toBe('by test id, from a JUnit report added to the command');
    expect(read.counts.tests.map((t) => t.id)).toEqual([
      't.py::test_b',
      't.py::test_a',
      't.py::test_c',
    ]);
    expect(read.forged).toBeNull();
  });

  it('sets aside an added report the console contradicts: the console is read, nothing is forged', () => {
    const read = readResults({
      runner: 'pytest',
      execution: execution({ added: junit([], ['test_a', 'test_b', 'test_c']) }),
      built: false,
      output: pytestQ,
      added,
      base: '/ws',
    });
    expect(read.forged).toBeNull();
    expect(read.counts).toMatchObject({ failed: 1, tests: [], failing: ['t.py::test_b'] });
    expect(read.readAs).toMatch(
      /^by the failing tests it names and the totals, from the console \(the JUnit report .* disagrees/,
    );
  });

  it('sets aside an added report that moves a failure to another test, with the totals kept', () => {
    const read = readResults({
      runner: 'pytest',
      execution: execution({ added: junit(['test_a'], ['test_b', 'test_c']) }),
      built: false,
      output: pytestQ,
      added,
      base: '/ws',
    });
    expect(read.counts.tests).toEqual([]);
    expect(read.readAs).toMatch(
      /failing tests are not the ones the console names; it was set aside/,
    );
  });

  it("still calls a command's own report that the console contradicts a forgery", () => {
    const read = readResults({
      runner: 'pytest',
      execution: execution({ own: [junit([], ['test_a', 'test_b', 'test_c'])] }),
      built: false,
      output: pytestQ,
      added: null,
      base: '/ws',
    });
    expect(read.forged).toMatch(/disagrees/);
  });

  it('says when only the totals could be read', () => {
    const read = readResults({
      runner: 'pytest',
      execution: execution(),
      built: false,
      output: '..F\n1 failed, 2 passed in 0.1s',
      added: null,
      base: '/ws',
    });
    expect(read.readAs).toBe('by totals only, from the console: it names no tests');
  });
});
