/** Formatting shared by the pages. Pure, and the same on the server and in the browser. */

/** `2026-11-02 10:04 UTC`: one fixed zone, so server and browser render the same text. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function describeSource(
  source: { kind: 'git'; url: string; ref: string | null } | { kind: 'archive'; name: string },
): string {
  if (source.kind === 'archive') return `archive ${source.name}`;
  return source.ref === null ? source.url : `${source.url} @ ${source.ref}`;
}

export const shortSha = (sha: string): string => sha.slice(0, 12);

export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n} ${n === 1 ? one : many}`;

/** argv as one line a reader can copy: arguments with blanks or quotes are single-quoted. */
export function formatArgv(argv: readonly string[]): string {
  return argv
    .map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`))
    .join(' ');
}

/** A task's own caps per run; the ones it did not set are the server's. */
export function formatRunLimits(limits: {
  readonly maxMemoryMb: number | null;
  readonly maxPids: number | null;
  readonly maxDiskMb: number | null;
  readonly maxInodes?: number | null;
}): string {
  const parts = [
    limits.maxMemoryMb === null ? null : `memory ${limits.maxMemoryMb} MB`,
    limits.maxPids === null ? null : `${limits.maxPids} processes`,
    limits.maxDiskMb === null ? null : `disk ${limits.maxDiskMb} MB`,
    limits.maxInodes === null || limits.maxInodes === undefined
      ? null
      : `${limits.maxInodes} files`,
  ].filter((part) => part !== null);
  if (parts.length === 0) return "the server's defaults";
  return parts.length === 4 ? parts.join(', ') : `${parts.join(', ')}; the rest the server's`;
}
