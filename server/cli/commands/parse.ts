import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import {
  isRunnerName,
  parseJUnitXml,
  parseTestOutput,
  runnerNames,
  sumTestCounts,
  type TestCounts,
} from '../../engine/parsers';
import { exitCodes, type CliCommand, type CliIo } from '../cli-io';

const validRunners = `auto, ${runnerNames.join(', ')}`;

const help = `Usage: shadowbox parse --runner NAME < OUTPUT
       shadowbox parse --junit FILE|DIR [--junit …]

Reads a test run's output from stdin (or JUnit XML reports) and prints one JSON line:
  {"passed":N,"failed":N,"skipped":N,"parsed":true|false,"buildFailed":true|false,
   "tests":[{"id":"…","status":"passed|failed|skipped"},…]}
"parsed": false means the output had no summary the parser recognises; the counts are then 0.
"buildFailed": true means the code did not build (a compile error): those tests never ran.
"tests" names every test of the run when the output names them all (verbose reporters, JUnit XML),
and is empty otherwise; the counts are then the runner's summary alone.

Options:
  --runner NAME   the runner that produced the output, or auto to guess it from the text;
                  one of: ${validRunners}
  --junit PATH    parse a JUnit XML file instead of stdin; a directory means every *.xml in it
                  (e.g. target/surefire-reports); may be repeated, the counts are summed
  -h, --help      show this help

Exit status: 0 when the output was read (even if it could not be parsed), 2 on invalid arguments.
`;

export const parseCommand: CliCommand = async (args, io) => {
  let values: { runner?: string; junit?: string[]; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        runner: { type: 'string' },
        junit: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return refuse(io, `${error instanceof Error ? error.message : String(error)}; see --help`);
  }
  if (values.help === true) {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  const { runner, junit = [] } = values;
  if (runner !== undefined && runner !== 'auto' && !isRunnerName(runner)) {
    return refuse(io, `unknown runner '${runner}'; valid runners: ${validRunners}`);
  }

  let result: TestCounts;
  if (junit.length > 0) {
    const reports = await readReports(io.cwd, junit);
    if (typeof reports === 'string') return refuse(io, reports);
    result = sumTestCounts(...reports.map(parseJUnitXml));
  } else if (runner === undefined) {
    return refuse(io, `--runner is required; valid runners: ${validRunners}`);
  } else {
    result = parseTestOutput(runner, await readAll(io.stdin));
  }
  const { passed, failed, skipped, parsed, buildFailed, tests } = result;
  const line = { passed, failed, skipped, parsed, buildFailed, tests };
  io.stdout.write(`${JSON.stringify(line)}\n`);
  return exitCodes.ok;
};

function refuse(io: CliIo, message: string): number {
  io.stderr.write(`shadowbox parse: ${message}\n`);
  return exitCodes.rejected;
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<unknown>) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The XML texts behind the --junit paths, or a message naming the path that could not be read. */
async function readReports(cwd: string, paths: readonly string[]): Promise<string[] | string> {
  const texts: string[] = [];
  for (const given of paths) {
    const full = path.resolve(cwd, given);
    try {
      const files = (await stat(full)).isDirectory()
        ? (await readdir(full))
            .filter((name) => name.endsWith('.xml'))
            .sort()
            .map((name) => path.join(full, name))
        : [full];
      for (const file of files) texts.push(await readFile(file, 'utf8'));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      return `cannot read --junit '${given}': ${reason}`;
    }
  }
  return texts;
}
