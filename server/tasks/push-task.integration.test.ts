// Pushing an approved change (#25 item 3) to a team's forge: a real `git http-backend` on loopback
// behind basic auth, which the task is also cloned from with the remote's credential. The push lands exactly the approved commit on shadowbox/<task>; a branch
// someone else moved is refused by the lease; a wrong credential gives a readable refusal; and the
// credential is in no file of the data directory, no event, no audit row, no error and no
// process's command line while git runs.
import { readdir, readFile, rm, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitUrlPolicy } from '../engine/intake';
import { addRemote } from '../remotes/remotes';
import { loadSecretBox } from '../remotes/secret-box';
import type { ServerRuntime } from '../runtime';
import { cliActor } from '../auth/actor';
import { tokenIn, userIn, teamIn } from '../test-support/actors';
import { startAuthGitHttpServer, type LoopbackServer } from '../test-support/git-http-server';
import { fakeForgeHandler } from '../test-support/fake-forge';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { waitForView } from '../test-support/task-waits';
import type { Actor, TaskView } from './task-api';

const secret = `forge-token-${Math.random().toString(36).slice(2)}-never-shown`;
const files = {
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
};
const fixed = 'def add(a, b):\n    return a + b\n';
const gitEnv = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'dev',
  GIT_AUTHOR_EMAIL: 'dev@example.invalid',
  GIT_COMMITTER_NAME: 'dev',
  GIT_COMMITTER_EMAIL: 'dev@example.invalid',
};

let root: string;
let upstream: string;
let baseline: string;
let forge: LoopbackServer & { readonly authorizations: string[] };
let api: ReturnType<typeof fakeForgeHandler>;
let scratch: ScratchRuntime;
let runtime: ServerRuntime;
let agent: Actor;
let reviewer: Actor;
let taskId: string;

const upstreamGit = async (args: string[]) =>
  (await execa('git', [`--git-dir=${upstream}`, ...args], { env: gitEnv })).stdout.trim();

/** Every process's command line, read while `during` runs (the credential must be in none). */
async function commandLinesDuring<T>(
  during: () => Promise<T>,
): Promise<{ result: T; seen: string[] }> {
  const seen = new Set<string>();
  const state = { running: true };
  const watch = (async () => {
    while (state.running) {
      for (const pid of await readdir('/proc').catch(() => [])) {
        if (!/^\d+$/.test(pid)) continue;
        const line = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
        if (line !== '') seen.add(line.replaceAll('\0', ' '));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  try {
    const result = await during();
    return { result, seen: [...seen] };
  } finally {
    state.running = false;
    await watch;
  }
}

async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = await readFile(file).catch(() => Buffer.alloc(0));
    if (bytes.includes(needle)) found.push(file);
  }
  return found;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'sbx-forge-'));
  const work = path.join(root, 'work');
  await execa('mkdir', ['-p', work, path.join(root, 'team')]);
  for (const [file, content] of Object.entries(files))
    await writeFile(path.join(work, file), content);
  await execa('git', ['init', '-q', '-b', 'main'], { cwd: work, env: gitEnv });
  await execa('git', ['add', '.'], { cwd: work, env: gitEnv });
  await execa('git', ['commit', '-qm', 'calc'], { cwd: work, env: gitEnv });
  upstream = path.join(root, 'team', 'app.git');
  await execa('git', ['clone', '-q', '--bare', work, upstream], { env: gitEnv });
  baseline = await upstreamGit(['rev-parse', 'refs/heads/main']);
  api = fakeForgeHandler(
    { owner: 'team', name: 'app', token: secret, defaultBranch: 'main' },
    () => `http://127.0.0.1:${forge.port}`,
  );
  forge = await startAuthGitHttpServer(
    root,
    { username: 'bot', password: secret },
    400,
    api.handle,
  );

  const gitPolicy = new GitUrlPolicy({ testOnlyAllowLoopback: true });
  scratch = await openScratchRuntime('sbx-push-', { gatherMs: 0, gitPolicy });
  runtime = scratch.runtime;
  const box = await loadSecretBox(scratch.dataDir, undefined);
  const remoteUrl = `http://127.0.0.1:${forge.port}/team/app.git`;
  await addRemote(
    { db: runtime.db, box, gitPolicy },
    { name: 'forge', url: remoteUrl, username: 'bot', secret },
    cliActor,
  );
  await addRemote(
    { db: runtime.db, box, gitPolicy },
    { name: 'gitea', url: remoteUrl, username: 'bot', forge: 'gitea', secret },
    cliActor,
  );
  await addRemote(
    { db: runtime.db, box, gitPolicy },
    { name: 'wrong', url: remoteUrl, username: 'bot', secret: 'not-the-token' },
    cliActor,
  );

  // Shared with a team where rita reviews: she sees and approves ada's tasks.
  await teamIn(runtime.db, 'core', { ada: 'author', rita: 'reviewer' });
  agent = await tokenIn(runtime.db, 'ada', ['agent']);
  reviewer = await userIn(runtime.db, 'rita', 'reviewer');
  ({ id: taskId } = await runtime.tasks.createTask(
    {
      // The forge's own URL, behind basic auth: cloned with the credential of the remote configured
      // for exactly this repository ('forge', the first of the three by name).
      source: { kind: 'git', url: remoteUrl },
      title: 'add subtracts',
      testCommand: ['python3', '-m', 'pytest', '-q'],
      maxIterations: 2,
      hypothesesPerIteration: 1,
      team: 'core',
    },
    agent,
  ));
  const wait = (done: (task: TaskView) => boolean) => waitForView(runtime, taskId, agent, done);
  await wait((t) => t.status === 'awaiting_hypotheses');
  await runtime.tasks.submitHypotheses(
    taskId,
    [{ name: 'adds', edits: [{ path: 'calc.py', content: fixed }], delete: [] }],
    agent,
  );
  const ready = await wait((t) => t.status === 'awaiting_review');
  await runtime.tasks.review(
    taskId,
    { verdict: 'approve', sha256: ready.diffSha256 ?? '' },
    reviewer,
  );
}, 300_000);

afterAll(async () => {
  await scratch.close();
  await forge.close();
  await rm(root, { recursive: true, force: true });
});

describe('push of an approved task to a forge', () => {
  it('lands exactly the approved commit on shadowbox/<task>, the credential nowhere but the request', async () => {
    const { result: pushed, seen } = await commandLinesDuring(() =>
      runtime.tasks.push(taskId, { remote: 'forge' }, reviewer),
    );
    const branch = `shadowbox/${taskId}`;
    expect(pushed).toMatchObject({ remote: 'forge', branch });
    expect(await upstreamGit(['rev-parse', `refs/heads/${branch}`])).toBe(pushed.commit);
    expect(await upstreamGit(['rev-parse', `${pushed.commit}^`])).toBe(baseline);
    expect(await upstreamGit(['show', `${pushed.commit}:calc.py`])).toBe(fixed.trimEnd());
    const message = await upstreamGit(['log', '-1', '--format=%an|%B', pushed.commit]);
    expect(message).toContain('ada|add subtracts');
    expect(message).toContain(`Approved-by: rita (sha256 ${pushed.sha256})`);
    // The remote saw the credential (basic auth), and nothing else did.
    expect(forge.authorizations).toContain(
      `Basic ${Buffer.from(`bot:${secret}`).toString('base64')}`,
    );
    expect(seen.some((line) => line.includes('git') && line.includes('push'))).toBe(true);
    expect(seen.filter((line) => line.includes(secret))).toEqual([]);
    expect(await filesContaining(scratch.dataDir, secret)).toEqual([]);
    const events = await runtime.db.event.findMany({ where: { taskId } });
    expect(events.find((event) => event.type === 'task.pushed')?.payload).toMatchObject({
      remote: 'forge',
      branch,
      commit: pushed.commit,
    });
    expect(JSON.stringify(events)).not.toContain(secret);
    const audit = await runtime.db.auditLog.findMany();
    expect(audit.find((row) => row.action === 'task.push')).toMatchObject({ target: taskId });
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it('refuses to overwrite a branch someone else moved', async () => {
    await upstreamGit(['update-ref', `refs/heads/shadowbox/${taskId}`, baseline]);
    const refusal = runtime.tasks.push(taskId, { remote: 'forge' }, reviewer);
    await expect(refusal).rejects.toMatchObject({
      code: 'PUSH_REJECTED',
      message: `the remote's branch shadowbox/${taskId} is not where Shadowbox left it (someone else moved or made it): refused to overwrite it`,
    });
    expect(await upstreamGit(['rev-parse', `refs/heads/shadowbox/${taskId}`])).toBe(baseline);
  });

  it('says so when the forge refuses the credential, naming neither credential', async () => {
    const error = await runtime.tasks
      .push(taskId, { remote: 'wrong', branch: 'fix/add' }, reviewer)
      .then(
        () => null,
        (caught: unknown) => caught as { code: string; message: string },
      );
    expect(error?.code).toBe('PUSH_REJECTED');
    expect(error?.message).toMatch(
      /^the remote refused the credential \(.*\); set it again with shadowbox remote add$/,
    );
    expect(error?.message).not.toContain('not-the-token');
    expect(error?.message).not.toContain(secret);
  });

  it('opens a pull request for the pushed branch on the forge, then updates it on the next push', async () => {
    const branch = 'fix/add-with-pr';
    const first = await runtime.tasks.push(
      taskId,
      { remote: 'gitea', branch, pullRequest: true },
      reviewer,
    );
    expect(first.pullRequest).toEqual({
      number: 1,
      url: `http://127.0.0.1:${forge.port}/team/app/pull/1`,
      created: true,
    });
    expect(api.pulls).toEqual([
      expect.objectContaining({
        head: branch,
        base: 'main',
        title: 'add subtracts',
        state: 'open',
      }),
    ]);
    expect(api.pulls[0]?.body).toContain(`Approved-by: rita (sha256 ${first.sha256})`);
    const again = await runtime.tasks.push(
      taskId,
      { remote: 'gitea', branch, pullRequest: true, squash: true },
      reviewer,
    );
    expect(again.pullRequest).toMatchObject({ number: 1, created: false });
    expect(api.pulls).toHaveLength(1);
    await expect(
      runtime.tasks.push(taskId, { remote: 'forge', branch: 'x', pullRequest: true }, reviewer),
    ).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message:
        'remote forge names no forge, so no pull request can be opened there (add it again with --forge github or gitea)',
    });
  });

  it('refuses an author, and a remote nobody configured', async () => {
    await expect(runtime.tasks.push(taskId, { remote: 'forge' }, agent)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(
      runtime.tasks.push(taskId, { remote: 'elsewhere' }, reviewer),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'no remote named elsewhere',
    });
  });
});
