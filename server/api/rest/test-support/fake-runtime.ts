import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../../errors/app-error';
import type { Actor } from '../../../tasks/task-api';
import type { RestDeps, RestRuntime } from '../handler';
import { FakeTaskService } from './fake-tasks';

/** Bearer tokens the fake runtime knows. */
export const tokens = {
  agent: 'agent-token-0123456789',
  reviewer: 'reviewer-token-0123456789',
} as const;

export interface FakeRuntime {
  readonly runtime: RestRuntime;
  readonly tasks: FakeTaskService;
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
  const actors = new Map<string, Actor>([
    [tokens.agent, { kind: 'token', tokenId: 'tok-agent', scopes: ['agent'] }],
    [tokens.reviewer, { kind: 'token', tokenId: 'tok-reviewer', scopes: ['agent', 'reviewer'] }],
  ]);
  const runtime: RestRuntime = {
    tasks,
    uploadDir,
    maxUploadBytes: options.maxUploadBytes ?? 1024 * 1024,
    authenticate(authorization) {
      const match = /^Bearer (\S+)$/.exec(authorization ?? '');
      const actor = match?.[1] === undefined ? undefined : actors.get(match[1]);
      if (actor === undefined) {
        return Promise.reject(new AppError('UNAUTHENTICATED', 'a valid bearer token is required'));
      }
      return Promise.resolve(actor);
    },
  };
  return {
    runtime,
    tasks,
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
