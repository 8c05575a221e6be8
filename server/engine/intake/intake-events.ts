/**
 * Everything intake reports while it works. Events are discriminated by `type`; consumers (the CLI,
 * the task service's event log) switch on it.
 */
export type IntakeEvent =
  | {
      readonly type: 'intake.started';
      readonly source: 'archive' | 'git';
      /** The archive path or the parsed URL `href` (never with credentials: the policy forbids them). */
      readonly location: string;
    }
  | {
      /** Archive extraction: cumulative counts after each written entry. */
      readonly type: 'intake.progress';
      readonly entries: number;
      readonly bytes: number;
    }
  | {
      /** A line of git's own progress (`Receiving objects:  45% (450/1000)`), parsed. */
      readonly type: 'intake.git.progress';
      readonly phase: string;
      readonly percent: number | null;
      readonly done: number | null;
      readonly total: number | null;
    }
  | {
      readonly type: 'intake.completed';
      readonly files: number;
      readonly bytes: number;
      readonly commit: string | null;
    }
  | {
      readonly type: 'intake.rejected';
      readonly code: string;
      readonly message: string;
    };
