import { describe, expect, it } from 'vitest';
import { remainingFailures } from './run-evidence';

const env = 'tests/test_net.py::test_download';

describe('remainingFailures', () => {
  it('leaves out known failures by id where the runner named every test', () => {
    const cases = [
      { id: 'tests/test_calc.py::test_add', status: 'passed' as const },
      { id: env, status: 'failed' as const },
    ];
    expect(remainingFailures({ cases, failed: 1 }, [env])).toEqual({ ids: [], count: 0 });
  });

  it('leaves them out where it named only its failures (pytest -q without a report)', () => {
    expect(remainingFailures({ cases: [], failed: 1, failing: [env] }, [env])).toEqual({
      ids: [],
      count: 0,
    });
    expect(
      remainingFailures({ cases: [], failed: 2, failing: [env, 'tests/test_calc.py::test_mean'] }, [
        env,
      ]),
    ).toEqual({ ids: ['tests/test_calc.py::test_mean'], count: 1 });
  });

  it('counts every failure where the names do not cover them all, or there are none', () => {
    // Two failed, one named: the unnamed one might be anything, known or not.
    expect(remainingFailures({ cases: [], failed: 2, failing: [env] }, [env])).toEqual({
      ids: [],
      count: 2,
    });
    expect(remainingFailures({ cases: [], failed: 1 }, [env])).toEqual({ ids: [], count: 1 });
  });
});
