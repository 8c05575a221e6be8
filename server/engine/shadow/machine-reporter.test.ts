import { describe, expect, it } from 'vitest';
import { addReporter } from './machine-reporter';

const ws = '/data/ws';

describe('addReporter', () => {
  it('adds a JUnit report to pytest right after the tool, with node ids (xunit1)', () => {
    const plan = addReporter(['python3', '-m', 'pytest', '-q', 'tests'], 'pytest', ws);
    expect(plan.reporter).toMatchObject({ kind: 'file', format: 'pytest-junit' });
    const file = plan.reporter?.kind === 'file' ? plan.reporter.path : '';
    expect(file).toMatch(/^\.shadowbox\/reports\/[0-9a-f]{24}\.xml$/);
    expect(plan.command).toEqual([
      'python3',
      '-m',
      'pytest',
      `--junitxml=${ws}/${file}`,
      '-o',
      'junit_family=xunit1',
      '-q',
      'tests',
    ]);
  });

  it('names each run report anew, so none can be planted in advance', () => {
    const a = addReporter(['pytest'], 'pytest', ws).reporter;
    const b = addReporter(['pytest'], 'pytest', ws).reporter;
    expect(a).not.toEqual(b);
  });

  it('leaves a command that asks for a report of its own, or cannot take one', () => {
    for (const [command, runner] of [
      [['pytest', '--junitxml=out.xml'], 'pytest'],
      [['pytest', '-p', 'no:junitxml'], 'pytest'],
      [['jest', '--json'], 'jest'],
      [['jest', '--reporters=jest-junit'], 'jest'],
      [['vitest', 'run', '--reporter=junit'], 'vitest'],
      [['vitest', 'run', '--outputFile=x.json'], 'vitest'],
      [['go', 'test', '-json', './...'], 'go'],
      [['go', 'test', '-c', './...'], 'go'],
      [['coverage', 'run', '-m', 'unittest'], 'unittest'],
      [['npm', 'test'], 'auto'],
      [['mocha'], 'mocha'],
      [['cargo', 'test'], 'cargo'],
    ] as const) {
      expect(addReporter(command, runner, ws), command.join(' ')).toEqual({
        command,
        reporter: null,
      });
    }
  });

  it('runs unittest through our runner, with the user arguments after it', () => {
    const plan = addReporter(['python3', '-m', 'unittest', '-k', 'calc'], 'unittest', ws);
    expect(plan.command[0]).toBe('python3');
    expect(plan.command[1]).toBe('-c');
    expect(plan.command[2]).toContain('unittest.main(module=None, testRunner=_Runner)');
    expect(plan.command.slice(3)).toEqual(['-k', 'calc']);
    expect(plan.reporter).toMatchObject({ kind: 'file', format: 'unittest-json' });
  });

  it("adds jest's JSON report and vitest's JSON reporter, keeping the user's reporters", () => {
    const jest = addReporter(['npx', 'jest', '--ci'], 'jest', ws);
    expect(jest.command.slice(0, 4)).toEqual([
      'npx',
      'jest',
      '--json',
      expect.stringMatching(/^--outputFile=\/data\/ws\/\.shadowbox\/reports\//),
    ]);
    expect(jest.command.at(-1)).toBe('--ci');
    const plain = addReporter(['vitest', 'run'], 'vitest', ws);
    expect(plain.command.slice(0, 4)).toEqual([
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
    ]);
    const verbose = addReporter(['vitest', 'run', '--reporter=verbose'], 'vitest', ws);
    expect(verbose.command.slice(0, 4)).toEqual([
      'vitest',
      'run',
      '--reporter=verbose',
      '--reporter=json',
    ]);
    expect(verbose.command.at(-1)).toMatch(
      /^--outputFile\.json=\/data\/ws\/\.shadowbox\/reports\//,
    );
  });

  it('makes go test print its events, read as a stream', () => {
    expect(addReporter(['go', 'test', '-count=1', './...'], 'go', ws)).toEqual({
      command: ['go', 'test', '-json', '-count=1', './...'],
      reporter: { kind: 'stream', format: 'go-json' },
    });
  });
});
