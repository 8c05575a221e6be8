/**
 * Serialises operations on one repository within this process. Worktrees share the object store,
 * refs and packed-refs of their source; git's own lock files make a concurrent update fail rather
 * than wait, so checkpoints on one source queue here instead of racing there.
 */
const tails = new Map<string, Promise<unknown>>();

export async function withRepoLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
