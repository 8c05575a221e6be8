// Where a test command writes JUnit XML, as paths relative to the command's working directory.
// The caller reads these files after the run; a directory (surefire, gradle) means every
// `TEST-*.xml` in it. Only what the command line says is known here: reporters configured in a
// config file (jest.config, .config/nextest.toml, pytest.ini `junit_xml`) or through environment
// variables are not seen, and report directories may hold files from an earlier run, so the
// caller should only trust files written during this run.
import { resolveTool } from './command';

export function junitReportPaths(argv: readonly string[]): string[] {
  const { name, args } = resolveTool(argv);
  switch (name) {
    case 'pytest':
    case 'py.test':
      return optionValues(args, ['--junitxml', '--junit-xml']);
    case 'vitest':
      return vitestPaths(args);
    case 'jest':
      // jest-junit writes ./junit.xml unless its environment variables or config say otherwise.
      return optionValues(args, ['--reporters', '--testResultsProcessor']).includes('jest-junit')
        ? ['junit.xml']
        : [];
    case 'mocha':
    case '_mocha':
      return mochaPaths(args);
    case 'node':
      return nodePaths(args);
    case 'bun':
      return optionValues(args, ['--reporter']).includes('junit')
        ? optionValues(args, ['--reporter-outfile'])
        : [];
    case 'ctest': {
      // A relative --output-junit path is placed in the build directory, i.e. --test-dir.
      const dir = optionValues(args, ['--test-dir']).at(-1);
      return optionValues(args, ['--output-junit']).map((file) =>
        dir === undefined || file.startsWith('/') ? file : `${dir.replace(/\/+$/, '')}/${file}`,
      );
    }
    case 'swift':
      // swift-testing writes next to the XCTest report, with a `-swift-testing` suffix.
      return optionValues(args, ['--xunit-output']).flatMap((file) => [
        file,
        file.replace(/(\.[^./]*)?$/, (extension) => `-swift-testing${extension}`),
      ]);
    case 'gotestsum':
      return optionValues(args, ['--junitfile']);
    case 'mvn':
    case 'mvnw':
      return mavenPaths(args);
    case 'gradle':
    case 'gradlew':
      // `test`, `:app:test`, and the lifecycle tasks that depend on it.
      return args.some((arg) => ['test', 'check', 'build'].includes(arg.split(':').at(-1) ?? ''))
        ? ['build/test-results/test']
        : [];
    default:
      return [];
  }
}

/** Values of `--name=value` and `--name value` for any of `names`, in command-line order. */
export function optionValues(args: readonly string[], names: readonly string[]): string[] {
  const values: string[] = [];
  args.forEach((arg, index) => {
    for (const name of names) {
      if (arg.startsWith(`${name}=`)) values.push(arg.slice(name.length + 1));
      else if (arg === name && args[index + 1] !== undefined) values.push(args[index + 1] ?? '');
    }
  });
  return values;
}

function vitestPaths(args: readonly string[]): string[] {
  if (!optionValues(args, ['--reporter']).includes('junit')) return [];
  // `--outputFile.junit=…` names the junit file; a plain `--outputFile` applies to all reporters.
  const specific = optionValues(args, ['--outputFile.junit']);
  return specific.length > 0 ? specific : optionValues(args, ['--outputFile']);
}

function mochaPaths(args: readonly string[]): string[] {
  const reporter = optionValues(args, ['--reporter', '-R']).at(-1);
  const options = new Map(
    optionValues(args, ['--reporter-options', '--reporter-option', '-O'])
      .flatMap((value) => value.split(','))
      .map((pair) => [pair.split('=')[0] ?? '', pair.split('=').slice(1).join('=')] as const),
  );
  if (reporter === 'mocha-junit-reporter') return [options.get('mochaFile') ?? 'test-results.xml'];
  if (reporter === 'xunit') return options.has('output') ? [options.get('output') ?? ''] : [];
  return [];
}

function nodePaths(args: readonly string[]): string[] {
  // Reporters and destinations pair up by position: the n-th destination is the n-th reporter's.
  const reporters = optionValues(args, ['--test-reporter']);
  const destinations = optionValues(args, ['--test-reporter-destination']);
  return reporters.flatMap((reporter, index) => {
    const destination = destinations[index];
    return reporter === 'junit' &&
      destination !== undefined &&
      !['stdout', 'stderr'].includes(destination)
      ? [destination]
      : [];
  });
}

function mavenPaths(args: readonly string[]): string[] {
  if (args.some((arg) => /^-DskipTests(?:=true)?$/.test(arg) || arg === '-Dmaven.test.skip=true'))
    return [];
  const phases = args.filter((arg) => !arg.startsWith('-'));
  const runsIntegrationTests = phases.some((phase) =>
    ['verify', 'install', 'deploy', 'integration-test', 'failsafe:integration-test'].includes(
      phase,
    ),
  );
  const runsUnitTests =
    runsIntegrationTests ||
    phases.some((phase) => ['test', 'package', 'surefire:test'].includes(phase));
  return [
    ...(runsUnitTests ? ['target/surefire-reports'] : []),
    ...(runsIntegrationTests ? ['target/failsafe-reports'] : []),
  ];
}
