import path from 'node:path';
import { worktreePath, type WorkspaceLayout } from '../engine/workspace';
import type { Actor } from './task-api';

/**
 * The server's own paths (a task's worktree, the data directory) are written into what a task
 * shows: the worktree step's event, run output (an overlay is mounted at the worktree's own path,
 * so every stack trace names it), setup logs, errors. They tell a reader how the host is laid out,
 * which only its administrators need to know. Everyone else sees `<worktree>` and `<data>`.
 *
 * Run output arrives in whole lines, so a path is never split across two strings.
 */
export type PathMask = <T>(value: T) => T;

const unmasked: PathMask = (value) => value;

export function serverPathMask(layout: WorkspaceLayout, actor: Actor, taskId: string): PathMask {
  if (seesServerPaths(actor)) return unmasked;
  const dataDir = path.dirname(layout.worktreesDir);
  // The longest first: the worktree lies inside the data directory.
  const replacements: readonly (readonly [string, string])[] = [
    [worktreePath(layout, taskId), '<worktree>'],
    [dataDir, '<data>'],
  ];
  const maskText = (text: string): string =>
    replacements.reduce((out, [from, to]) => out.replaceAll(from, to), text);
  return <T>(value: T): T => mapStrings(value, maskText) as T;
}

/** Administrators (and the server's own command line) see the server's paths. */
export function seesServerPaths(actor: Actor): boolean {
  return actor.kind === 'cli' || actor.person.role === 'admin';
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]),
    );
  }
  return value;
}
