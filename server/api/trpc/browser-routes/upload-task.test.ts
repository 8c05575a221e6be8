import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../../tasks/task-api';
import { fakeUser } from '../../../test-support/actors';
import { fakeAccounts } from '../../http/test-support/fake-auth';
import { FakeTaskService } from '../../http/test-support/fake-tasks';
import { handleUploadTask } from './upload-task';

let root: string;
let uploadDir: string;
let tasks: FakeTaskService;
/** Who the session cookie says uploads (null: nobody signed in). */
let session: Actor | null;
const alice = fakeUser('alice');

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'shadowbox-ui-upload-'));
  uploadDir = join(root, 'uploads');
  tasks = new FakeTaskService();
  session = alice;
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function form(fields: Record<string, string>, archive?: Blob): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  if (archive !== undefined) data.set('archive', archive, 'project.tar.gz');
  return data;
}

function upload(body: FormData, headers: Record<string, string> = { 'x-shadowbox-ui': '1' }) {
  const request = new Request('http://127.0.0.1:3000/api/uploads/tasks', {
    method: 'POST',
    headers,
    body,
  });
  return handleUploadTask(request, () =>
    Promise.resolve({ tasks, uploadDir, maxUploadBytes: 1024, accounts: fakeAccounts(session) }),
  );
}

const archive = new Blob([new Uint8Array([0x1f, 0x8b, 1, 2, 3])]);
const fields = {
  testCommand: JSON.stringify(['python3', '-m', 'pytest', '-q']),
  maxIterations: '2',
  hypothesesPerIteration: '',
};

describe('POST /api/uploads/tasks', () => {
  it('creates a task from the archive as the signed-in person', async () => {
    const response = await upload(form(fields, archive));
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const created = tasks.created[0];
    expect(created?.id).toBe(id);
    expect(created?.actor).toEqual(alice);
    expect(created?.input.testCommand).toEqual(['python3', '-m', 'pytest', '-q']);
    expect(created?.input.maxIterations).toBe(2);
    expect(created?.input.hypothesesPerIteration).toBeUndefined();
    expect(created?.input.source).toMatchObject({ kind: 'archive', name: 'project.tar.gz' });
    expect(created?.archiveBytes).toEqual(Buffer.from([0x1f, 0x8b, 1, 2, 3]));
  });

  it('passes the run caps, the setup and build commands and the known failures through', async () => {
    const response = await upload(
      form(
        {
          ...fields,
          maxMemoryMb: '512',
          maxPids: '',
          setupCommands: JSON.stringify([['pip', 'install', '-r', 'requirements.txt']]),
          buildCommand: JSON.stringify(['python3', '-m', 'compileall', '.']),
          knownFailures: JSON.stringify(['test_net.py::test_download']),
        },
        archive,
      ),
    );
    expect(response.status).toBe(201);
    expect(tasks.created[0]?.input).toMatchObject({
      limits: { maxMemoryMb: 512 },
      setupCommands: [['pip', 'install', '-r', 'requirements.txt']],
      buildCommand: ['python3', '-m', 'compileall', '.'],
      knownFailures: ['test_net.py::test_download'],
    });
  });

  it('refuses a setup command that is not an argv, naming the field', async () => {
    const response = await upload(form({ ...fields, setupCommands: '[[]]' }, archive));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^setupCommands\[0\]: a setup command needs/);
    expect(await readdir(uploadDir)).toEqual([]);
  });

  it('refuses an upload without a session before storing it', async () => {
    session = null;
    const response = await upload(form(fields, archive));
    expect(response.status).toBe(401);
    expect(tasks.created).toEqual([]);
    expect(await readdir(uploadDir).catch(() => [])).toEqual([]);
  });

  it('refuses a request without the UI header (a cross-site form)', async () => {
    const response = await upload(form(fields, archive), {});
    expect(response.status).toBe(403);
    expect(tasks.created).toEqual([]);
  });

  it('answers refusals as {error:{code,message}} and leaves no file behind', async () => {
    const badCommand = await upload(form({ testCommand: 'pytest -q' }, archive));
    expect(badCommand.status).toBe(400);
    const body = (await badCommand.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toContain('testCommand');

    const noFile = await upload(form(fields));
    expect(((await noFile.json()) as { error: { message: string } }).error.message).toContain(
      'choose an archive',
    );

    const tooLarge = await upload(form(fields, new Blob([new Uint8Array(2048)])));
    expect(tooLarge.status).toBe(413);
    expect(await readdir(uploadDir)).toEqual([]);
    expect(tasks.created).toEqual([]);
  });
});
