/** The project's test collection, from its runners' configuration files and the test command. */

import { collectedBy, type Collected, type Collection, type Matcher } from './collection';
import { jsCollection, jsConfigPaths, jsFile } from './js-collection';
import type { Files, Read } from './pytest-config';
import { pythonCollection, pythonConfigPaths } from './python-collection';
import { runnerOf, type RunnerCommand } from './runner-command';

const none: Collected = { mode: 'none', why: '' };

/** What the runners collect, by configuration files already read (`files`). */
export function collectionFrom(files: Files, testCommand?: readonly string[]): Collection {
  return build(files, runnerOf(testCommand));
}

function build(files: Files, command: RunnerCommand): Collection {
  const python = pythonCollection(files, command);
  const js: Matcher[] = jsCollection(files, command);
  return {
    python: python.names,
    collected: (path) => {
      if (path.endsWith('.py')) return collectedBy(python.matchers, path);
      if (jsFile.test(path)) return collectedBy(js, path);
      // Go tests live only in `_test.go` files and Rust's are marked by attributes, not names.
      return none;
    },
  };
}

/**
 * What the runners collect by their defaults alone, for a command that names none of them:
 * what the review page assumes from a diff, which carries no configuration.
 */
export const defaultCollection: Collection = build(() => null, { runner: null, args: [] });

/**
 * What the project's runners collect, by the configuration files of the hypotheses' base (not
 * a hypothesis's own: changing those is a test edit of its own) and the task's test command.
 * Reads each configuration file at most once, and none for a language no changed file is in.
 */
export async function collectionOf(
  read: Read,
  testCommand: readonly string[] | undefined,
  changedPaths: readonly string[],
): Promise<Collection> {
  const command = runnerOf(testCommand);
  const wanted = new Set<string>();
  if (changedPaths.some((p) => p.endsWith('.py'))) {
    for (const p of pythonConfigPaths(command)) wanted.add(p);
  }
  if (changedPaths.some((p) => jsFile.test(p)))
    for (const p of jsConfigPaths(command)) wanted.add(p);
  const texts = new Map<string, string | null>();
  await Promise.all(
    [...wanted].map(async (path) => {
      // A file that cannot be read is absent to this as it would be to the runner's default
      // search; a runner that could read it collects by it (the task runs it, not this).
      texts.set(path, await read(path).catch(() => null));
    }),
  );
  return build((path) => texts.get(path) ?? null, command);
}
