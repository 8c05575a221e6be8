/**
 * What one sandboxed run may use. Every run gets all three; a cap this machine cannot enforce is
 * reported by the probe (see `SandboxCapabilities`), never silently dropped.
 */
export interface RunLimits {
  /** Resident memory of the whole run (every process, tmpfs included), in MiB. */
  readonly maxMemoryMb: number;
  /** Processes and threads alive at once. */
  readonly maxPids: number;
  /**
   * What the run may write, in MiB: its shadow and cache overlays together (watched), and at most
   * as much again in each of HOME and /tmp (tmpfs, counted against the memory cap).
   */
  readonly maxDiskMb: number;
}

export const defaultRunLimits: RunLimits = { maxMemoryMb: 4096, maxPids: 1024, maxDiskMb: 4096 };

/** The cap a run hit; the run was killed for it and can never be a pass. */
export type LimitExceeded = 'memory' | 'pids' | 'disk';

/** The verdict a run that hit a cap gets, naming the cap ("exceeded its memory cap of 4096 MB"). */
export function describeLimitExceeded(limit: LimitExceeded, limits: RunLimits): string {
  switch (limit) {
    case 'memory':
      return `exceeded its memory cap of ${limits.maxMemoryMb} MB`;
    case 'pids':
      return `exceeded its process cap of ${limits.maxPids} processes`;
    case 'disk':
      return `exceeded its disk cap of ${limits.maxDiskMb} MB`;
  }
}

const bounds: Record<keyof RunLimits, readonly [number, number, string]> = {
  maxMemoryMb: [16, 1_048_576, 'MB'],
  maxPids: [8, 4_194_304, 'processes'],
  maxDiskMb: [1, 16_777_216, 'MB'],
};

/** The problem with a limits object, naming the field and the value; null when it is valid. */
export function runLimitsProblem(limits: Partial<RunLimits>): string | null {
  for (const [name, [min, max, unit]] of Object.entries(bounds) as [
    keyof RunLimits,
    readonly [number, number, string],
  ][]) {
    const value = limits[name];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < min || value > max) {
      return `${name} must be a whole number of ${unit} from ${min} to ${max}, got ${String(value)}`;
    }
  }
  return null;
}

/** The caps an object sets (e.g. a request's `maxMemoryMb`…); the ones it leaves out stay out. */
export function pickRunLimits(fields: {
  readonly maxMemoryMb?: number | null | undefined;
  readonly maxPids?: number | null | undefined;
  readonly maxDiskMb?: number | null | undefined;
}): Partial<RunLimits> {
  const picked: { -readonly [K in keyof RunLimits]?: number } = {};
  for (const name of ['maxMemoryMb', 'maxPids', 'maxDiskMb'] as const) {
    const value = fields[name];
    if (value !== undefined && value !== null) picked[name] = value;
  }
  return picked;
}
