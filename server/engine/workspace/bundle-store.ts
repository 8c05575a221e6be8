/**
 * Where a source's git data is kept beyond this disk, so any worker can rebuild a task's
 * repository and worktree: one complete bundle of the source's baseline commit, then one bundle per
 * checkpoint on top of the commit it builds on. The engine only knows this port; the server keeps
 * the bundles in its database.
 */
export interface BundleHead {
  readonly sourceId: string;
  /** The commit the bundle's one ref points at. */
  readonly tipSha: string;
  /** The commit it needs already (its parent); null for the complete bundle of a baseline. */
  readonly baseSha: string | null;
}

export interface StoredBundle extends BundleHead {
  readonly bytes: Buffer;
}

export interface BundleStore {
  /** Keeps a bundle; storing the same (sourceId, tipSha) again changes nothing. */
  put(bundle: StoredBundle): Promise<void>;
  /** What is kept for a source, without the bytes. */
  heads(sourceId: string): Promise<readonly BundleHead[]>;
  /** One bundle's bytes; NOT_FOUND when it is not kept. */
  read(sourceId: string, tipSha: string): Promise<Buffer>;
}

/**
 * The bundles that lead from nothing to `tipSha`, oldest first (the complete one, then each
 * checkpoint on its parent), or null when the chain is broken: some commit on the way was never
 * stored, so the tip cannot be rebuilt from bundles alone.
 */
export function bundleChain(heads: readonly BundleHead[], tipSha: string): BundleHead[] | null {
  const byTip = new Map(heads.map((head) => [head.tipSha, head]));
  const chain: BundleHead[] = [];
  for (let sha: string | null = tipSha; sha !== null;) {
    const head = byTip.get(sha);
    // A cycle cannot come from git (a commit's parent is older), but the rows are only rows.
    if (head === undefined || chain.length > byTip.size) return null;
    chain.push(head);
    sha = head.baseSha;
  }
  return chain.reverse();
}
