import type { Db } from '../../db/client';
import { prismaCode } from '../../db/transaction';
import type { BundleHead, BundleStore, StoredBundle } from '../../engine/workspace';
import { AppError } from '../../errors/app-error';

/**
 * Git bundles in the database (GitBundle rows), the one store every worker shares: what a worker
 * that takes a task over rebuilds its repository and worktree from.
 */
export class PrismaBundleStore implements BundleStore {
  constructor(private readonly db: Db) {}

  async put(bundle: StoredBundle): Promise<void> {
    try {
      await this.db.gitBundle.create({
        data: {
          sourceId: bundle.sourceId,
          tipSha: bundle.tipSha,
          baseSha: bundle.baseSha,
          bytes: new Uint8Array(bundle.bytes),
          size: bundle.bytes.length,
        },
      });
    } catch (error) {
      // The same commit stored twice (a step retried after a crash): its bundle is the same.
      if (prismaCode(error) !== 'P2002') throw error;
    }
  }

  heads(sourceId: string): Promise<readonly BundleHead[]> {
    return this.db.gitBundle.findMany({
      where: { sourceId },
      select: { sourceId: true, tipSha: true, baseSha: true },
    });
  }

  async read(sourceId: string, tipSha: string): Promise<Buffer> {
    const row = await this.db.gitBundle.findUnique({
      where: { sourceId_tipSha: { sourceId, tipSha } },
      select: { bytes: true },
    });
    if (row === null) throw new AppError('NOT_FOUND', `no bundle of ${tipSha} in ${sourceId}`);
    return Buffer.from(row.bytes);
  }
}
