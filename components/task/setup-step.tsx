import { formatArgv, formatDuration } from '../format';
import type { TaskView } from '../trpc/router-types';
import { EgressLog } from './egress-log';
import { OutputTail } from './output-tail';
import { Step } from './timeline-step';
import type { SetupResult, SetupState } from './timeline-state';

type SetupRecord = NonNullable<TaskView['setup']>;

function stateWord(setup: SetupState, record: SetupRecord | null): string {
  const { result } = setup;
  if (setup.state === 'running') return 'running';
  if (result !== null && !result.ok) return 'failed';
  return (result?.cached ?? record?.cached) === true ? 'cached' : 'done';
}

function failure(result: SetupResult): string {
  if (result.timedOut) return 'timed out';
  if (result.error !== null) return `failed: ${result.error}`;
  return `exited with ${result.exitCode ?? 'no exit code'}`;
}

/**
 * Installing the dependencies, once, before the baseline: the commands (and why, when detected),
 * whether the result came from the cache, where the install asked to connect, and on failure
 * the command that failed with its output. Live from the stream; the stored record otherwise.
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
  return (
    <Step title="Setup" state={stateWord(setup, record)}>
      {commands.length === 0 ? (
        <p>No setup commands: nothing to install.</p>
      ) : (
        <ul className="setup-commands" aria-label="Setup commands">
          {commands.map((argv, i) => (
            <li key={i}>
              <code>{formatArgv(argv)}</code>
            </li>
          ))}
        </ul>
      )}
      {detected && reasons.length > 0 ? (
        <p>
          Detected from the tree: <span className="mono">{reasons.join('; ')}</span>
        </p>
      ) : null}
      {finished && (result?.ok ?? true) ? (
        <p>
          {cached
            ? `setup: cached (restored in ${formatDuration(durationMs)})`
            : `setup: installed in ${formatDuration(durationMs)}`}
        </p>
      ) : null}
      {result === null || result.ok ? null : (
        <p className="task-error">
          {result.failedCommand === null ? (
            'The setup'
          ) : (
            <code>{formatArgv(result.failedCommand)}</code>
          )}{' '}
          {failure(result)} after {formatDuration(result.durationMs)}
        </p>
      )}
      {finished ? <EgressLog egress={result?.egress ?? record?.egress ?? []} /> : null}
      {live ? (
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
