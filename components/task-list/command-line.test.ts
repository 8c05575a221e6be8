import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './command-line';

const argv = (line: string) => {
  const result = splitCommandLine(line);
  return result.ok ? result.argv : result.message;
};

describe('splitCommandLine', () => {
  it('splits on blanks and honours quotes and backslashes', () => {
    expect(argv('python3 -m pytest -q')).toEqual(['python3', '-m', 'pytest', '-q']);
    expect(argv(`pytest -k "not slow" 'tests/a b.py'`)).toEqual([
      'pytest',
      '-k',
      'not slow',
      'tests/a b.py',
    ]);
    expect(argv('cargo test -- --nocapture  ')).toEqual(['cargo', 'test', '--', '--nocapture']);
    expect(argv('pytest tests/a\\ b.py')).toEqual(['pytest', 'tests/a b.py']);
  });

  it('passes globs and $ in single quotes through unexpanded', () => {
    expect(argv('pytest tests/*.py')).toEqual(['pytest', 'tests/*.py']);
    expect(argv(`pytest -k '$x'`)).toEqual(['pytest', '-k', '$x']);
  });

  it('refuses what only a shell would do', () => {
    expect(argv('pytest | tee log')).toContain("'|' is a shell operator");
    expect(argv('pytest > out.txt')).toContain("'>' is a shell operator");
    expect(argv('make && pytest')).toContain("'&&' is a shell operator");
    expect(argv('pytest $ARGS')).toContain('$ARGS would be expanded by a shell');
    expect(argv('pytest # all')).toContain('comment');
  });

  it('refuses an empty line', () => {
    expect(argv('   ')).toContain('give the command');
  });
});
