import { describe, expect, it } from 'vitest';
import { junitReportPaths } from './index';

describe('junitReportPaths', () => {
  it.each([
    [['pytest', '--junitxml=out.xml'], ['out.xml']],
    [['python3', '-m', 'pytest', '--junit-xml', 'reports/junit.xml', '-q'], ['reports/junit.xml']],
    [['pytest', '-q'], []],
    [['npx', 'vitest', 'run', '--reporter=junit', '--outputFile=junit.xml'], ['junit.xml']],
    [
      [
        'vitest',
        'run',
        '--reporter',
        'default',
        '--reporter',
        'junit',
        '--outputFile.junit',
        'r.xml',
      ],
      ['r.xml'],
    ],
    [['vitest', 'run', '--outputFile=out.json'], []],
    [['vitest', 'run', '--reporter=junit'], []], // written to stdout, where `auto` reads it
    [['jest', '--ci', '--reporters=default', '--reporters=jest-junit'], ['junit.xml']],
    [['jest', '--outputFile', 'results.json', '--json'], []],
    [['mocha', '--reporter', 'mocha-junit-reporter'], ['test-results.xml']],
    [
      ['mocha', '-R', 'mocha-junit-reporter', '--reporter-options', 'mochaFile=out/m.xml'],
      ['out/m.xml'],
    ],
    [['mocha', '--reporter', 'xunit', '--reporter-options', 'output=x.xml'], ['x.xml']],
    [
      [
        'node',
        '--test',
        '--test-reporter=spec',
        '--test-reporter=junit',
        '--test-reporter-destination=stdout',
        '--test-reporter-destination=junit.xml',
      ],
      ['junit.xml'],
    ],
    [['bun', 'test', '--reporter=junit', '--reporter-outfile=bun.xml'], ['bun.xml']],
    [['ctest', '--output-junit', 'ctest.xml'], ['ctest.xml']],
    [['ctest', '--test-dir', 'build/', '--output-junit', 'ctest.xml'], ['build/ctest.xml']],
    [
      ['swift', 'test', '--xunit-output', 'out.xml'],
      ['out.xml', 'out-swift-testing.xml'],
    ],
    [['gotestsum', '--junitfile', 'go.xml', '--', './...'], ['go.xml']],
    [['mvn', 'test'], ['target/surefire-reports']],
    [
      ['./mvnw', '-B', 'verify'],
      ['target/surefire-reports', 'target/failsafe-reports'],
    ],
    [['mvn', 'package', '-DskipTests'], []],
    [['mvn', 'compile'], []],
    [['gradle', ':app:test'], ['build/test-results/test']],
    [['cargo', 'test'], []],
    [['npm', 'test'], []],
  ] as const)('%j → %j', (argv, paths) => {
    expect(junitReportPaths(argv)).toEqual(paths);
  });
});
