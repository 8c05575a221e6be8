/** The newest verdict on a task, as the server records it (TaskView['decision']). */
export interface Decision {
  readonly verdict: 'approve' | 'reject';
  readonly by: string;
  readonly at: string;
  readonly sha256: string;
}

/** `14:02 UTC`: the clock time in one fixed zone, so server and browser render the same text. */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(11, 16)} UTC`;
}

/** `3f2a9c1e…`: enough of the hash to recognise it; the full one goes in a title. */
export const shortHash = (sha256: string): string =>
  sha256.length > 8 ? `${sha256.slice(0, 8)}…` : sha256;

/** The parts of "approved by alice, 14:02 UTC, sha256 3f2a9c1e…". */
export function decisionParts(decision: Decision): {
  readonly verb: string;
  readonly by: string;
  readonly time: string;
  readonly hash: string;
} {
  return {
    verb: decision.verdict === 'approve' ? 'approved' : 'rejected',
    by: decision.by,
    time: clockTime(decision.at),
    hash: shortHash(decision.sha256),
  };
}
