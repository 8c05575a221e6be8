import { AppError } from '../../errors/app-error';

/** Limits that bound what one archive or clone may cost. Every field is a hard cap. */
export interface IntakeCaps {
  readonly maxEntries: number;
  readonly maxTotalBytes: number;
  readonly maxFileBytes: number;
  /** Uncompressed : compressed, per zip entry and for a whole compressed tar stream. */
  readonly maxRatio: number;
  /** Zip entries smaller than this are exempt from the ratio rule: they cannot be a bomb. */
  readonly ratioExemptBytes: number;
  readonly maxDepth: number;
  readonly maxNameBytes: number;
}

export const defaultIntakeCaps: IntakeCaps = {
  maxEntries: 20_000,
  maxTotalBytes: 1024 ** 3,
  maxFileBytes: 256 * 1024 ** 2,
  maxRatio: 100,
  ratioExemptBytes: 64 * 1024,
  maxDepth: 64,
  maxNameBytes: 4096,
};

/** Merges overrides into the defaults, naming the option and value that is out of range. */
export function resolveIntakeCaps(overrides: Partial<IntakeCaps> = {}): IntakeCaps {
  const caps = { ...defaultIntakeCaps, ...overrides };
  for (const [name, value] of Object.entries(caps)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `intake cap ${name} must be a non-negative integer, got ${String(value)}`,
      );
    }
  }
  return caps;
}
