import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import type { EvalInstance } from '../eval-instance';

// A set from the web names its repositories, and a local path there would read the server's own
// disk (the data directory's sources of every team, anything git can open). Server runs take Git
// URLs (checked by the intake's URL policy when the attempt starts) and local paths only inside
// the roots the operator lists.

const isUrl = (repo: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(repo);

const inside = (root: string, target: string): boolean => {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** Refuses the set (naming the instance) when a local `repo` is outside every allowed root. */
export async function checkSetRepositories(
  instances: readonly EvalInstance[],
  localRoots: readonly string[],
): Promise<void> {
  const roots = await Promise.all(localRoots.map((root) => realpath(root).catch(() => null)));
  const allowed = roots.filter((root): root is string => root !== null);
  for (const instance of instances) {
    if (isUrl(instance.repo)) continue;
    const refuse = (why: string) =>
      new AppError('INVALID_ARGUMENT', `instance ${instance.instance_id}: repo ${why}`);
    if (allowed.length === 0) {
      throw refuse(
        'must be a Git URL on the server (local repositories: run `shadowbox eval run` on the machine)',
      );
    }
    if (!path.isAbsolute(instance.repo)) throw refuse('must be an absolute path or a Git URL');
    const real = await realpath(instance.repo).catch(() => null);
    if (real === null) throw refuse('does not exist on the server');
    if (!allowed.some((root) => inside(root, real))) {
      throw refuse('is outside the directories this server runs local repositories from');
    }
  }
}
