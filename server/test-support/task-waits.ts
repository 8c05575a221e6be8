// Driving a real task through the task service in integration tests: pack a tree the test
// wrote as an upload, then poll the task's view until it reaches the state asked for.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { ServerRuntime } from '../runtime';
import type { Actor, TaskView } from '../tasks/task-api';

/** Where a task stops and waits for someone, or ends: the states a test waits for. */
export const settled = (task: TaskView): boolean =>
  ['awaiting_hypotheses', 'awaiting_review', 'failed', 'interrupted'].includes(task.status);

/** Polls the task as `actor` sees it until `done` holds; the timeout error shows the task. */
export async function waitForView(
  runtime: ServerRuntime,
  taskId: string,
  actor: Actor,
  done: (task: TaskView) => boolean,
  timeoutMs = 180_000,
): Promise<TaskView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const task = await runtime.tasks.getTask(taskId, actor);
    if (done(task)) return task;
    if (Date.now() > until) throw new Error(`timed out; task is ${JSON.stringify(task, null, 1)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Packs `files` (relative path → content) as a tar.gz in the server's upload directory. */
export async function uploadTree(
  runtime: ServerRuntime,
  name: string,
  files: Readonly<Record<string, string>>,
): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-proj-'));
  try {
    for (const [relative, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
      await writeFile(path.join(dir, relative), content);
    }
    const file = path.join(runtime.uploadDir, `${name}-${Date.now()}.tar.gz`);
    await execa('tar', ['-czf', file, '-C', dir, '.']);
    return file;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
