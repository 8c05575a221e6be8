import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeAuthenticate } from '../../http/test-support/fake-auth';
import { FakeTaskService } from '../../http/test-support/fake-tasks';
import type { RestDeps, RestRuntime } from '../handler';
import { createFakeBatches, type FakeBatchService } from './fake-batches';
import { FakeReviewService } from './fake-reviews';

export interface FakeRuntime {
  readonly runtime: RestRuntime;
  readonly tasks: FakeTaskService;
  readonly reviews: FakeReviewService;
  readonly batches: FakeBatchService;
  readonly deps: RestDeps;
  /** Names in the upload directory (empty when nothing was left behind). */
  uploads(): Promise<string[]>;
  dispose(): Promise<void>;
}

export async function createFakeRuntime(
  options: { maxUploadBytes?: number; sseHeartbeatMs?: number } = {},
): Promise<FakeRuntime> {
  const root = await mkdtemp(join(tmpdir(), 'shadowbox-rest-'));
  const uploadDir = join(root, 'uploads');
  const tasks = new FakeTaskService();
  const reviews = new FakeReviewService(tasks);
  const batches = createFakeBatches();
  const runtime: RestRuntime = {
    tasks,
    reviews,
    batches,
    uploadDir,
    maxUploadBytes: options.maxUploadBytes ?? 1024 * 1024,
    authenticate: fakeAuthenticate,
  };
  return {
    runtime,
    tasks,
    reviews,
    batches,
    deps:
      options.sseHeartbeatMs === undefined
        ? { runtime }
        : { runtime, sseHeartbeatMs: options.sseHeartbeatMs },
    async uploads() {
      try {
        return await readdir(uploadDir);
      } catch {
        return [];
      }
    },
    async dispose() {
      await rm(root, { recursive: true, force: true });
    },
  };
}
