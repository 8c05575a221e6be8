import type { ReactNode } from 'react';
import { formatArgv, formatDuration } from '../format';
import type { TaskView } from '../trpc/router-types';
import { EgressLog } from './egress-log';
import { OutputTail } from './output-tail';
import { Step } from './timeline-step';
import type { SetupResult, SetupState } from './timeline-state';

type SetupRecord = NonNullable<TaskView['setup']>;

function stateWord(setup: SetupState, record: SetupRecord | null, commands: number): string {
  const { result } = setup;
  if (setup.state === 'running') return 'running';
  if (result !== null && !result.ok) return 'failed';
  if (commands === 0) return 'none';
  return (result?.cached ?? record?.cached) === true ? 'cached' : 'done';
}

/** A message that quotes commands in backticks, with the commands set as code. */
function withCode(message: string): ReactNode {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}

/** How the setup failed, naming the command once (the server's message already names it). */
function failure(result: SetupResult): ReactNode {
  const command =
    result.failedCommand === null ? 'The setup' : <code>{formatArgv(result.failedCommand)}</code>;
  const after = formatDuration(result.durationMs);
  if (result.timedOut) {
    return (
      <>
        {command} timed out after {after}
      </>
    );
  }
  if (result.error !== null) {
    return (
      <>
        {withCode(result.error)}, after {after}
      </>
    );
  }
  return (
    <>
      {command} exited with {result.exitCode ?? 'no exit code'} after {after}
    </>
  );
}

/**
 * Installing the dependencies, once, before the baseline: the commands (or, when detected, what
 * in the tree asked for them), whether the result came from the cache, where the install asked to
 * connect, and on failure the command that failed with its output; and the build step every run
 * starts with when setup builds. Live from the stream; the stored record otherwise.
 */
export function SetupStep({
  setup,
  record,
}: {
  readonly setup: SetupState;
  readonly record: SetupRecord | null;
}) {
  if (setup.state === 'waiting' && record === null) return null;
  const live = setup.state !== 'waiting';
  const commands = live ? setup.commands : (record?.commands ?? []);
  const reasons = live ? setup.reasons : (record?.reasons ?? []);
  const detected = live ? setup.detected : (record?.detected ?? false);
  const { result } = setup;
  const cached = result?.cached ?? record?.cached ?? false;
  const durationMs = result?.durationMs ?? record?.durationMs ?? null;
  const finished = result !== null || (!live && record !== null);
  const failed = result !== null && !result.ok;
  // Nothing ran: no time, no network and no output to show.
  const ran = commands.length > 0 || failed;
  return (
    <Step title="Setup" state={stateWord(setup, record, commands.length)}>
      {commands.length === 0 ? <p>No setup commands: nothing to install.</p> : null}
      {detected && reasons.length > 0 ? (
        // Each reason names the commands it detected ("package-lock.json → npm ci").
        reasons.length === 1 ? (
          <p>
            Detected from the tree: <span className="mono">{reasons[0]}</span>
          </p>
        ) : (
          <>
            <p>Detected from the tree:</p>
            <ul className="setup-reasons" aria-label="Detected from the tree">
              {reasons.map((reason, i) => (
                <li key={i} className="mono">
                  {reason}
                </li>
              ))}
            </ul>
          </>
        )
      ) : commands.length === 0 ? null : (
        <ul className="setup-commands" aria-label="Setup commands">
          {commands.map((argv, i) => (
            <li key={i}>
              <code>{formatArgv(argv)}</code>
            </li>
          ))}
        </ul>
      )}
      {record?.build == null ? null : (
        // Detected because setup builds: without it every run would test the baseline's binaries.
        <p>
          Build step before the tests of every run: <code>{formatArgv(record.build.argv)}</code>{' '}
          (detected; a build command given with the task replaces it)
        </p>
      )}
      {finished && !failed && commands.length > 0 ? (
        <p>
          {cached
            ? `setup: cached (restored in ${formatDuration(durationMs)})`
            : `setup: installed in ${formatDuration(durationMs)}`}
        </p>
      ) : null}
      {failed ? <p className="task-error">{failure(result)}</p> : null}
      {finished && ran ? <EgressLog egress={result?.egress ?? record?.egress ?? []} /> : null}
      {live && ran ? (
        <OutputTail
          label="Setup output"
          text={
            result === null || result.outputTail === ''
              ? setup.liveOutput.join('\n')
              : result.outputTail
          }
        />
      ) : null}
    </Step>
  );
}
