import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { testGit } from '../../test-support/git-fixtures';
import { parseEvalSet, type EvalInstance } from '../eval-instance';

/** calc.py with two bugs: subtract() adds, mean() floors. add() is right (its test passes). */
export const buggyCalc = `def add(a, b):
    return a + b


def subtract(a, b):
    return a + b


def mean(values):
    return sum(values) // len(values)
`;
/** test_calc.py at the base commit: only add()'s test, which passes. */
export const baseCalcTests = `from calc import add


def test_add():
    assert add(2, 3) == 5
`;
export const fixedMean = buggyCalc.replace('//', '/');
/** subtract() with its body swapped for `op` (`-` is the reference fix). */
export const subtractWith = (op: '-' | '*'): string =>
  buggyCalc.replace('return a + b\n\n\ndef mean', `return a ${op} b\n\n\ndef mean`);

/** The diff that writing `files` makes to the repository's HEAD (the files are then restored). */
async function patchOf(repo: string, files: Record<string, string>): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(repo, name), content);
  }
  const diff = await testGit(repo, ['diff', '--', ...Object.keys(files)]);
  await testGit(repo, ['checkout', '--', '.']);
  return `${diff}\n`;
}

const testOf = (name: string, check: string): string =>
  `${baseCalcTests}\n\ndef test_${name}():\n    from calc import ${name}\n    assert ${check}\n`;

/**
 * A git repository `dir/calc` holding the buggy calc at one commit, and an eval set of two
 * instances written by hand in the set format (each: the base commit, a test patch adding the
 * failing test, the reference fix): `calc__mean` and `calc__subtract`, run by pytest.
 */
export async function calcEvalSet(dir: string): Promise<{
  readonly repo: string;
  readonly instances: EvalInstance[];
}> {
  const repo = path.join(dir, 'calc');
  await testGit(dir, ['init', '-q', '-b', 'main', repo]);
  await writeFile(path.join(repo, 'calc.py'), buggyCalc);
  await writeFile(path.join(repo, 'test_calc.py'), baseCalcTests);
  await testGit(repo, ['add', '-A']);
  await testGit(repo, ['commit', '-q', '-m', 'calc with two bugs']);
  const base = await testGit(repo, ['rev-parse', 'HEAD']);
  const line = (fields: Partial<EvalInstance>): string =>
    JSON.stringify({
      repo,
      base_commit: base,
      PASS_TO_PASS: ['test_calc.py::test_add'],
      test_command: ['python3', '-m', 'pytest', '-q'],
      ...fields,
    });
  const set = [
    line({
      instance_id: 'calc__mean',
      problem_statement: 'mean() floors: mean([1, 2]) is 1, not 1.5',
      test_patch: await patchOf(repo, { 'test_calc.py': testOf('mean', 'mean([1, 2]) == 1.5') }),
      patch: await patchOf(repo, { 'calc.py': fixedMean }),
      FAIL_TO_PASS: ['test_calc.py::test_mean'],
    }),
    line({
      instance_id: 'calc__subtract',
      problem_statement: 'subtract() adds',
      test_patch: await patchOf(repo, {
        'test_calc.py': testOf('subtract', 'subtract(5, 3) == 2'),
      }),
      patch: await patchOf(repo, { 'calc.py': subtractWith('-') }),
      FAIL_TO_PASS: ['test_calc.py::test_subtract'],
    }),
  ].join('\n');
  return { repo, instances: parseEvalSet(set) };
}
