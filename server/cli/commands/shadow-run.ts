import { readFile, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AppError } from '../../errors/app-error';
import { runnerNames, type RunnerName } from '../../engine/parsers';
import { testEditorsOf } from '../../engine/review';
import { workspaceIdentity, type RunLimits } from '../../engine/sandbox';
import {
  createShadowRunner,
  formatReport,
  type ShadowEvent,
  type ShadowRunReport,
} from '../../engine/shadow';
import { loadEnv } from '../../env';
import { exitCodes, type CliCommand, type CliIo } from '../cli-io';
import { loadSpec } from './shadow-spec-file';

const help = `Usage: shadowbox shadow-run SPEC.json [options] -- CMD ARGS…

Runs every hypothesis of SPEC.json in its own copy-on-write shadow of the workspace, in parallel,
ranks them by their parsed test results and prints the winner's diff. Without --apply the workspace
is left byte-for-byte untouched.

SPEC.json: {"hypotheses":[{"name":"fix-a","edits":[{"path":"src/lib.rs","content":"…"}],"delete":["old.rs"]}]}
  an edit may give "file" (relative to SPEC.json) instead of "content"; a hypothesis without edits
  is the baseline.

Options:
  --workspace DIR      the workspace (default: the current directory)
  --parallel N         hypotheses at once (default: the number of cores)
  --timeout-secs S     per hypothesis (default: 600)
  --max-memory-mb N    memory of one hypothesis's run, every process together (default: 4096)
  --max-pids N         processes and threads of one run at once (default: 1024)
  --max-disk-mb N      what one run may write into its shadow (default: 4096)
  --max-inodes N       files one run may create in its shadow and tmpfs (default: 200000)
  --apply              write the winner into the workspace (all or nothing)
  --allow-test-edits   let hypotheses that edit tests or reach into the test framework win
  --json               print one JSON object instead of the table
  --mode MODE          auto (default), overlay or inplace
  --tmpfs              keep upper layers on a tmpfs instead of the data directory
  --runner NAME        the test output parser (default: from the command, else detected)
  --cwd DIR            workspace-relative directory to run the command in
  --data-dir DIR       scratch space (default: $SHADOWBOX_DATA_DIR or ./data, unless inside the workspace)

A hypothesis that edits tests (test files, test configuration, tests in source files) or whose
added lines in ordinary code reach into the test framework (docs/security.md lists the rules) runs
and is shown, but ranks last and cannot win unless --allow-test-edits; its reason names the rule.

Exit status: 0 when a hypothesis passed, 1 when none did, 2 when the input was refused.
`;

/** A workspace file as it is now, null when absent or outside the workspace (a link out). */
async function workspaceText(workspace: string, file: string): Promise<string | null> {
  try {
    const root = await realpath(workspace);
    const real = await realpath(path.resolve(root, file));
    const relative = path.relative(root, real);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
    return await readFile(real, 'utf8');
  } catch {
    return null;
  }
}

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new AppError('INVALID_ARGUMENT', `--${name} must be a positive integer, got '${value}'`);
  return n;
}

function dataDirFor(io: CliIo, given: string | undefined, workspace: string): string {
  const dir = path.resolve(io.cwd, given ?? io.env.SHADOWBOX_DATA_DIR ?? 'data');
  const relative = path.relative(workspace, dir);
  const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  // Never create scratch space inside the workspace we promise not to touch.
  return inside && given === undefined
    ? path.join(os.tmpdir(), `shadowbox-${process.getuid?.() ?? 0}`)
    : dir;
}

function progress(io: CliIo): { emit(event: ShadowEvent): void } {
  return {
    emit(event) {
      if (event.type === 'hypothesis.started') io.stderr.write(`… ${event.name} started\n`);
      if (event.type === 'hypothesis.finished') {
        const r = event.result;
        io.stderr.write(
          `${r.exitCode === 0 ? '✓' : '✗'} ${r.name} finished: exit ${String(r.exitCode)}, ${r.passed} passed, ${r.failed} failed in ${(r.durationMs / 1000).toFixed(1)}s\n`,
        );
      }
    },
  };
}

export const shadowRunCommand: CliCommand = async (args, io) => {
  const split = args.indexOf('--');
  const own = split === -1 ? args : args.slice(0, split);
  const command = split === -1 ? [] : args.slice(split + 1);
  const { values, positionals } = parseArgs({
    args: [...own],
    allowPositionals: true,
    options: {
      workspace: { type: 'string' },
      parallel: { type: 'string' },
      'timeout-secs': { type: 'string' },
      'max-memory-mb': { type: 'string' },
      'max-pids': { type: 'string' },
      'max-disk-mb': { type: 'string' },
      'max-inodes': { type: 'string' },
      apply: { type: 'boolean' },
      'allow-test-edits': { type: 'boolean' },
      json: { type: 'boolean' },
      mode: { type: 'string' },
      tmpfs: { type: 'boolean' },
      runner: { type: 'string' },
      cwd: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  const [specPath, ...extra] = positionals;
  if (specPath === undefined || extra.length > 0) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `expected exactly one SPEC.json before '--', got ${positionals.length}; see --help`,
    );
  }
  if (command.length === 0)
    throw new AppError(
      'INVALID_ARGUMENT',
      "no test command: give it after '--', e.g. -- cargo test",
    );
  const mode = values.mode ?? 'auto';
  if (mode !== 'auto' && mode !== 'overlay' && mode !== 'inplace') {
    throw new AppError(
      'INVALID_ARGUMENT',
      `--mode must be auto, overlay or inplace, got '${mode}'`,
    );
  }
  const runner = values.runner;
  if (
    runner !== undefined &&
    runner !== 'auto' &&
    !(runnerNames as readonly string[]).includes(runner)
  ) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `--runner '${runner}' is unknown; one of: auto, ${runnerNames.join(', ')}`,
    );
  }
  const workspace = path.resolve(io.cwd, values.workspace ?? '.');
  const timeoutSecs = positiveInteger('timeout-secs', values['timeout-secs']);
  const parallel = positiveInteger('parallel', values.parallel);
  const spec = await loadSpec(path.resolve(io.cwd, specPath));
  const env = loadEnv(io.env, io.cwd);
  const limits: RunLimits = {
    maxMemoryMb:
      positiveInteger('max-memory-mb', values['max-memory-mb']) ?? env.runLimits.maxMemoryMb,
    maxPids: positiveInteger('max-pids', values['max-pids']) ?? env.runLimits.maxPids,
    maxDiskMb: positiveInteger('max-disk-mb', values['max-disk-mb']) ?? env.runLimits.maxDiskMb,
    maxInodes: positiveInteger('max-inodes', values['max-inodes']) ?? env.runLimits.maxInodes,
  };

  // A person's own workspace: runs are its owner's, never root's (see workspaceIdentity).
  const owner = mode === 'inplace' ? null : await workspaceIdentity(workspace);
  if (owner?.note != null) io.stderr.write(`shadowbox: ${owner.note}\n`);
  const shadows = await createShadowRunner({
    dataDir: dataDirFor(io, values['data-dir'], workspace),
    mode,
    ...(owner === null ? {} : { identity: owner.identity }),
    tmpfsUpper: values.tmpfs === true,
    sandboxReadOnlyPaths: env.sandboxReadOnlyPaths,
    // The caller waits for this process to exit, not for the disk to forget the shadows.
    detachedRemoval: true,
  });
  if (shadows.fallbackReason !== null) {
    io.stderr.write(
      shadows.mode === 'inplace'
        ? `shadowbox: running in-place: ${shadows.fallbackReason}\n`
        : `shadowbox: no sandbox here, so nothing runs (--mode inplace runs without isolation): ${shadows.fallbackReason}\n`,
    );
  }
  for (const note of shadows.capabilities?.notes ?? []) io.stderr.write(`shadowbox: ${note}\n`);
  for (const file of shadows.sweep.notRestored) {
    io.stderr.write(`shadowbox: an interrupted in-place run left ${file} changed; not restored\n`);
  }
  // The same rule as a task's: unless allowed, what edits tests or forges results cannot win.
  const demote =
    values['allow-test-edits'] === true
      ? new Map<string, string>()
      : await testEditorsOf(spec.hypotheses, (file) => workspaceText(workspace, file));
  const report: ShadowRunReport = await shadows.run(
    {
      workspace,
      command,
      hypotheses: spec.hypotheses,
      apply: values.apply === true,
      demote,
      limits,
      ...(parallel === undefined ? {} : { parallel }),
      ...(timeoutSecs === undefined ? {} : { timeoutMs: timeoutSecs * 1000 }),
      ...(runner === undefined ? {} : { runner: runner as RunnerName | 'auto' }),
      ...(values.cwd === undefined ? {} : { cwd: values.cwd }),
    },
    progress(io),
  );
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify(report)}\n`);
  } else {
    io.stdout.write(formatReport(report, { command, workspace }));
  }
  await shadows.settled();
  return report.winner === null ? exitCodes.failure : exitCodes.ok;
};
