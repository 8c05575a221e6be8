import type { IntakeEvent } from './intake-events';

type GitProgressEvent = Extract<IntakeEvent, { type: 'intake.git.progress' }>;

const progressLine = /^(?:remote: )?([A-Za-z][A-Za-z ]+):\s+(\d+)% \((\d+)\/(\d+)\)/;

/**
 * Turns git's `--progress` stderr (lines separated by CR or LF, arriving in arbitrary chunks) into
 * events, emitting each (phase, percent) step once.
 */
export function gitProgressParser(
  emit: (event: GitProgressEvent) => void,
): (chunk: string) => void {
  let pending = '';
  let last = '';
  return (chunk) => {
    const parts = (pending + chunk).split(/[\r\n]/);
    pending = parts.pop() ?? '';
    for (const part of parts) {
      const match = progressLine.exec(part.trim());
      if (match === null) continue;
      const [, phase = '', percent = '0', done = '0', total = '0'] = match;
      const key = `${phase}:${percent}`;
      if (key === last) continue;
      last = key;
      emit({
        type: 'intake.git.progress',
        phase,
        percent: Number(percent),
        done: Number(done),
        total: Number(total),
      });
    }
  };
}
