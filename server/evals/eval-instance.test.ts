import { describe, expect, it } from 'vitest';
import { formatEvalInstance, parseEvalSet, type EvalInstance } from './eval-instance';

const instance: EvalInstance = {
  instance_id: 'calc__1234567-89abcde',
  repo: '/srv/calc',
  base_commit: 'a'.repeat(40),
  patch: 'diff --git a/add.py b/add.py\n',
  test_patch: 'diff --git a/test_add.py b/test_add.py\n',
  problem_statement: 'add adds',
  hints_text: '',
  created_at: '2026-12-01T10:00:00Z',
  FAIL_TO_PASS: ['test_add.py::test_add'],
  PASS_TO_PASS: ['test_add.py::test_zero'],
  test_command: ['python3', '-m', 'pytest', '-q'],
};

describe('eval sets', () => {
  it('round-trips an instance through a line of JSONL', () => {
    expect(parseEvalSet(`${formatEvalInstance(instance)}\n\n`)).toEqual([instance]);
  });

  it("reads SWE-bench's JSON-encoded test lists and fills the fields it may leave out", () => {
    const { hints_text: _h, created_at: _c, test_command: _t, ...bare } = instance;
    const line = JSON.stringify({
      ...bare,
      FAIL_TO_PASS: JSON.stringify(instance.FAIL_TO_PASS),
      PASS_TO_PASS: '[]',
    });
    expect(parseEvalSet(line)).toEqual([
      { ...bare, hints_text: '', created_at: '', PASS_TO_PASS: [] },
    ]);
  });

  it('names the line and the field of a bad instance', () => {
    const bad = JSON.stringify({ ...instance, base_commit: 'main' });
    expect(() => parseEvalSet(`${formatEvalInstance(instance)}\n${bad}`, 'set.jsonl')).toThrow(
      'set.jsonl, line 2: base_commit is not a 40-hex commit',
    );
    expect(() => parseEvalSet('{"instance_id":', 'set.jsonl')).toThrow(
      /^set\.jsonl, line 1 is not JSON/,
    );
    expect(() =>
      parseEvalSet(JSON.stringify({ ...instance, FAIL_TO_PASS: 'test_add' }), 'set.jsonl'),
    ).toThrow('set.jsonl, line 1: FAIL_TO_PASS is neither a list of test ids nor its JSON');
  });

  it('refuses a set that names one instance twice', () => {
    const line = formatEvalInstance(instance);
    expect(() => parseEvalSet(`${line}\n${line}`, 'set.jsonl')).toThrow(
      "set.jsonl, line 2: instance_id 'calc__1234567-89abcde' appears twice",
    );
  });
});
