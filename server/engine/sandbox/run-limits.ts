/**
 * What one sandboxed run may use. Every run gets all four; a cap this machine cannot enforce is
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
  /**
   * Files, directories and links the run may create: counted in its shadow and cache overlays
   * (watched), and the `nr_inodes` of each of its tmpfs mounts. Empty files cost no blocks, so
   * the disk cap alone lets a run spend the host file system's inodes.
   */
  readonly maxInodes: number;
}

export const defaultRunLimits: RunLimits = {
  maxMemoryMb: 4096,
  maxPids: 1024,
  maxDiskMb: 4096,
  maxInodes: 200_000,
};

export const runLimitNames = ['maxMemoryMb', 'maxPids', 'maxDiskMb', 'maxInodes'] as const;

/** The cap a run hit; the run was killed for it and can never be a pass. */
export type LimitExceeded = 'memory' | 'pids' | 'disk' | 'inodes';

/** The verdict a run that hit a cap gets, naming the cap ("exceeded its memory cap of 4096 MB"). */
export function describeLimitExceeded(limit: LimitExceeded, limits: RunLimits): string {
  switch (limit) {
    case 'memory':
      return `exceeded its memory cap of ${limits.maxMemoryMb} MB`;
    case 'pids':
      return `exceeded its process cap of ${limits.maxPids} processes`;
    case 'disk':
      return `exceeded its disk cap of ${limits.maxDiskMb} MB`;
    case 'inodes':
      return `exceeded its inode cap of ${limits.maxInodes} files`;
  }
}

/** The smallest and largest value each cap may take anywhere, and the unit messages name. */
export const runLimitBounds: Record<keyof RunLimits, readonly [number, number, string]> = {
  maxMemoryMb: [16, 1_048_576, 'MB'],
  maxPids: [8, 4_194_304, 'processes'],
  maxDiskMb: [1, 16_777_216, 'MB'],
  maxInodes: [100, 1_000_000_000, 'files'],
};

/** The problem with a limits object, naming the field and the value; null when it is valid. */
export function runLimitsProblem(limits: Partial<RunLimits>): string | null {
  for (const name of runLimitNames) {
    const [min, max, unit] = runLimitBounds[name];
    const value = limits[name];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < min || value > max) {
      return `${name} must be a whole number of ${unit} from ${min} to ${max}, got ${String(value)}`;
    }
  }
  return null;
}

/**
 * The caps a task asks above what it may have, named with the bound: the server's caps are
 * ceilings a task may only lower; an admin may raise a task's caps up to the hard maximum.
 * Null when every requested cap is within reach.
 */
export function runLimitsAboveCeiling(
  requested: Partial<RunLimits>,
  bounds: { readonly ceiling: RunLimits; readonly hardMax: RunLimits; readonly admin: boolean },
): string | null {
  const top = bounds.admin ? bounds.hardMax : bounds.ceiling;
  for (const name of runLimitNames) {
    const value = requested[name];
    if (value === undefined || value <= top[name]) continue;
    const unit = runLimitBounds[name][2];
    const above = bounds.admin
      ? `this server's hard maximum of ${top[name]} ${unit}`
      : `this server's ceiling of ${top[name]} ${unit}` +
        (bounds.hardMax[name] > top[name] ? ' (an admin may raise it)' : '');
    return `${name} ${value} is above ${above}`;
  }
  return null;
}

/**
 * The caps a stored task runs with: each one it set, but never above the hard maximum (a task
 * stored before the ceilings, or before the server's maximum was lowered, is held to it).
 */
export function clampRunLimits(limits: Partial<RunLimits>, hardMax: RunLimits): Partial<RunLimits> {
  const clamped: { -readonly [K in keyof RunLimits]?: number } = {};
  for (const name of runLimitNames) {
    const value = limits[name];
    if (value !== undefined) clamped[name] = Math.min(value, hardMax[name]);
  }
  return clamped;
}

/** The caps an object sets (e.g. a request's `maxMemoryMb`…); the ones it leaves out stay out. */
export function pickRunLimits(fields: {
  readonly maxMemoryMb?: number | null | undefined;
  readonly maxPids?: number | null | undefined;
  readonly maxDiskMb?: number | null | undefined;
  readonly maxInodes?: number | null | undefined;
}): Partial<RunLimits> {
  const picked: { -readonly [K in keyof RunLimits]?: number } = {};
  for (const name of runLimitNames) {
    const value = fields[name];
    if (value !== undefined && value !== null) picked[name] = value;
  }
  return picked;
}
