import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderRunsHtml } from '../../evals/report/report-html';
import { renderComparisonText, renderRunText } from '../../evals/report/report-text';
import { readRunFile, type RunFile } from '../../evals/run/run-file';
import { AppError, isAppError } from '../../errors/app-error';
import { exitCodes, type CliCommand } from '../cli-io';
import { failWith } from './with-database';

const help = `Usage: shadowbox eval report RUN.json [RUN2.json] [--html OUT]

Prints an eval run (from \`shadowbox eval run\`) as a table: each instance's resolved attempts,
pass@k, tokens, cost, time and why it was not resolved, then the total with pass@1, pass@k and
pass^k and their 95% Wilson intervals. With a second run, both side by side and the instances
one resolves and the other does not.

  --html OUT   also write one self-contained HTML page (tables, a chart of pass@k against cost
               per model; no scripts, nothing fetched)
  -h, --help   show this help

Exit status: 0 printed; 2 invalid arguments or a file that is not a run; 1 a file that cannot be
read or written.
`;

export const evalReportCommand: CliCommand = async (args, io) => {
  const refuse = (message: string): number =>
    failWith(io, 'eval report', false, {
      code: 'INVALID_ARGUMENT',
      message: `${message}; see --help`,
    });
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { html: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return refuse((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  if (positionals.length < 1 || positionals.length > 2) {
    return refuse('give one RUN.json, or two to compare');
  }
  try {
    const runs: RunFile[] = [];
    for (const name of positionals) {
      const run = await readRunFile(path.resolve(io.cwd, name));
      if (run === null) throw new AppError('NOT_FOUND', `${name} does not exist`);
      runs.push(run);
    }
    const [first, second] = runs;
    if (first === undefined) return refuse('give a RUN.json');
    io.stdout.write(
      second === undefined ? renderRunText(first) : renderComparisonText(first, second),
    );
    if (values.html !== undefined) {
      const out = path.resolve(io.cwd, values.html);
      await writeFile(out, renderRunsHtml(runs));
      io.stderr.write(`wrote ${out}\n`);
    }
    return exitCodes.ok;
  } catch (error) {
    if (isAppError(error)) return failWith(io, 'eval report', false, error);
    return failWith(io, 'eval report', false, {
      code: 'INTERNAL',
      message: error instanceof Error ? error.message : String(error),
    });
  }
};
