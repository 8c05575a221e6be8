// Test-output parsers: framework-free, pure functions from a run's output to its counts.
export { runnerNames, isRunnerName, sum as sumTestCounts } from './types';
export type { RunnerName, TestCounts, TestCase, TestStatus } from './types';
export { parseTestOutput } from './parse-test-output';
export { detectRunner } from './detect';
export { runnerFromCommand } from './from-command';
export { parseJUnitXml } from './junit-xml';
export { junitReportPaths } from './junit-paths';
export { stripAnsi } from './text';
export { isPython, resolveTool } from './command';
export { checkReport, leafName, type ReportCheck } from './report-trust';
