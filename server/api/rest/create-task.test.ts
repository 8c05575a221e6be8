import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors/app-error';
import { tokenActors } from '../http/test-support/fake-auth';
import { handleCreateTask } from './create-task';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import {
  auth,
  base,
  boundary,
  jsonRequest,
  multipartBody,
  multipartRequest,
  streamedRequest,
} from './test-support/requests';

let fake: FakeRuntime;
const maxUploadBytes = 64 * 1024;

beforeEach(async () => {
  fake = await createFakeRuntime({ maxUploadBytes });
});
afterEach(async () => {
  await fake.dispose();
});

function create(request: Request): Promise<Response> {
  return handleCreateTask(request, fake.deps, undefined);
}

const gitTask = { gitUrl: 'https://example.com/repo.git', testCommand: ['pytest', '-q'] };

describe('POST /api/v1/tasks with JSON', () => {
  it('creates a task from a Git URL: 201 {id}, Location, defaults 3 and 3', async () => {
    const response = await create(jsonRequest('POST', '/tasks', gitTask));
    const body = await readJson<{ id: string }>(response, 201);
    expect(Object.keys(body)).toEqual(['id']);
    expect(response.headers.get('location')).toBe(`/api/v1/tasks/${body.id}`);
    expect(fake.tasks.created).toHaveLength(1);
    const [record] = fake.tasks.created;
    expect(record!.id).toBe(body.id);
    expect(record!.input).toEqual({
      source: { kind: 'git', url: 'https://example.com/repo.git', ref: undefined },
      testCommand: ['pytest', '-q'],
      maxIterations: 3,
      hypothesesPerIteration: 3,
      limits: {},
    });
    expect(record!.actor).toEqual(tokenActors.agent);
  });

  it('passes a title, a problem and an issue link through; a bad link is a 400 naming it', async () => {
    const purpose = {
      title: 'mean() of two numbers is wrong',
      problem: '`mean([1, 2])` returns 1.',
      issueUrl: 'https://example.com/repo/issues/7',
    };
    const response = await create(jsonRequest('POST', '/tasks', { ...gitTask, ...purpose }));
    const { id } = await readJson<{ id: string }>(response, 201);
    expect(fake.tasks.created[0]!.input).toMatchObject(purpose);
    expect(await fake.tasks.getTask(id, tokenActors.agent)).toMatchObject(purpose);

    const refused = await create(
      jsonRequest('POST', '/tasks', { ...gitTask, issueUrl: 'javascript:alert(1)' }),
    );
    await expectError(
      refused,
      400,
      'INVALID_ARGUMENT',
      'issueUrl must be an https:// URL of at most 2048 characters, without credentials',
    );
  });

  it('titles a task that was given none after its repository', async () => {
    const response = await create(jsonRequest('POST', '/tasks', { ...gitTask, ref: 'v1.2' }));
    const { id } = await readJson<{ id: string }>(response, 201);
    expect((await fake.tasks.getTask(id, tokenActors.agent)).title).toBe('repo @ v1.2');
  });

  it('passes ref and the budgets through', async () => {
    const response = await create(
      jsonRequest('POST', '/tasks', {
        ...gitTask,
        ref: 'v1.2',
        maxIterations: 10,
        hypothesesPerIteration: 16,
      }),
    );
    expect(response.status).toBe(201);
    expect(fake.tasks.created[0]!.input).toMatchObject({
      source: { kind: 'git', ref: 'v1.2' },
      maxIterations: 10,
      hypothesesPerIteration: 16,
    });
  });

  it('passes the run caps through, and refuses one out of range naming it', async () => {
    const response = await create(
      jsonRequest('POST', '/tasks', { ...gitTask, maxMemoryMb: 512, maxDiskMb: 64 }),
    );
    expect(response.status).toBe(201);
    expect(fake.tasks.created[0]!.input.limits).toEqual({ maxMemoryMb: 512, maxDiskMb: 64 });
    const refused = await create(jsonRequest('POST', '/tasks', { ...gitTask, maxPids: 2 }));
    await expectError(refused, 400, 'INVALID_ARGUMENT', /maxPids/);
  });

  it('passes the setup commands, the build command and the known failures through', async () => {
    const response = await create(
      jsonRequest('POST', '/tasks', {
        ...gitTask,
        setupCommands: [
          ['npm', 'ci'],
          ['npm', 'run', 'prepare'],
        ],
        buildCommand: ['npx', 'tsc', '-p', '.'],
        knownFailures: ['tests/test_net.py::test_download'],
      }),
    );
    expect(response.status).toBe(201);
    expect(fake.tasks.created[0]!.input).toMatchObject({
      setupCommands: [
        ['npm', 'ci'],
        ['npm', 'run', 'prepare'],
      ],
      buildCommand: ['npx', 'tsc', '-p', '.'],
      knownFailures: ['tests/test_net.py::test_download'],
    });
  });

  it('keeps "no setup" ([]) apart from "detect" (left out)', async () => {
    await create(jsonRequest('POST', '/tasks', { ...gitTask, setupCommands: [] }));
    await create(jsonRequest('POST', '/tasks', gitTask));
    const [none, detect] = fake.tasks.created;
    expect(none!.input.setupCommands).toEqual([]);
    expect(detect!.input.setupCommands).toBeUndefined();
  });

  it.each([
    ['setupCommands', 'npm ci', /^setupCommands: setupCommands must be an array of commands/],
    ['setupCommands', ['npm', 'ci'], /^setupCommands\[0\]: .*array of strings/],
    ['setupCommands', [[]], /^setupCommands\[0\]: a setup command needs at least the program/],
    ['setupCommands', [['npm', '']], /^setupCommands\[0\]\[1\]: an argument may not be empty/],
    [
      'setupCommands',
      Array.from({ length: 17 }, () => ['npm', 'ci']),
      /^setupCommands: setupCommands may hold at most 16 commands/,
    ],
    ['buildCommand', 'make', /^buildCommand: buildCommand must be an array of strings/],
    ['buildCommand', [], /^buildCommand: buildCommand needs at least the program/],
    ['knownFailures', 'test_a', /^knownFailures: knownFailures must be an array of test ids/],
    ['knownFailures', ['test_a', ''], /^knownFailures\[1\]: a test id may not be empty/],
  ])('refuses %s = %j, naming the field', async (field, value, message) => {
    const response = await create(jsonRequest('POST', '/tasks', { ...gitTask, [field]: value }));
    await expectError(response, 400, 'INVALID_ARGUMENT', message);
    expect(fake.tasks.created).toHaveLength(0);
  });

  it("answers the service's refusal of a setup command with 400 naming it", async () => {
    vi.spyOn(fake.tasks, 'createTask').mockRejectedValueOnce(
      new AppError('COMMAND_NOT_ALLOWED', "setup command 1: 'curl' is not a setup tool"),
    );
    const response = await create(
      jsonRequest('POST', '/tasks', { ...gitTask, setupCommands: [['curl', 'https://x.sh']] }),
    );
    await expectError(response, 400, 'COMMAND_NOT_ALLOWED', /^setup command 1: /);
  });

  it('accepts a charset parameter on the content type', async () => {
    const request = jsonRequest('POST', '/tasks', gitTask, {
      ...auth(),
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect((await create(request)).status).toBe(201);
  });

  it('refuses a request without a token: 401 with WWW-Authenticate', async () => {
    const response = await create(jsonRequest('POST', '/tasks', gitTask, {}));
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await expectError(response, 401, 'UNAUTHENTICATED');
    expect(fake.tasks.created).toHaveLength(0);
  });

  it('refuses an unknown token: 401', async () => {
    const response = await create(
      jsonRequest('POST', '/tasks', gitTask, { Authorization: 'Bearer not-a-token' }),
    );
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await expectError(response, 401, 'UNAUTHENTICATED');
  });

  it('refuses other content types: 415', async () => {
    const request = new Request(`${base}/tasks`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'text/plain' },
      body: JSON.stringify(gitTask),
    });
    await expectError(await create(request), 415, 'UNSUPPORTED_MEDIA_TYPE', /text\/plain/);
  });

  it('refuses malformed JSON: 400 "request body is not valid JSON"', async () => {
    const response = await create(jsonRequest('POST', '/tasks', '{"gitUrl": "https://x'));
    const error = await expectError(response, 400, 'INVALID_ARGUMENT');
    expect(error.message).toBe('request body is not valid JSON');
  });

  it('refuses a body that is not an object', async () => {
    const response = await create(jsonRequest('POST', '/tasks', [1, 2]));
    await expectError(response, 400, 'INVALID_ARGUMENT', /request body: .*expected object/);
  });

  it('refuses unknown fields, naming them', async () => {
    const response = await create(
      jsonRequest('POST', '/tasks', { ...gitTask, shell: 'rm -rf /', timeoutSecs: 5 }),
    );
    const error = await expectError(response, 400, 'INVALID_ARGUMENT');
    expect(error.message).toContain('unknown fields "shell", "timeoutSecs"');
    expect(fake.tasks.created).toHaveLength(0);
  });

  it.each([
    ['a string', 'pytest -q', /testCommand/],
    ['an empty array', [], /testCommand: testCommand needs at least the program/],
    ['an empty argument', ['pytest', ''], /testCommand\[1\]: an argument may not be empty/],
    ['a number inside', ['pytest', 3], /testCommand\[1\]/],
    ['65 arguments', Array.from({ length: 65 }, () => 'x'), /at most 64 arguments/],
    ['an argument over 4096 characters', ['x'.repeat(4097)], /at most 4096 characters/],
  ])('refuses a testCommand that is %s', async (_what, testCommand, message) => {
    const response = await create(jsonRequest('POST', '/tasks', { ...gitTask, testCommand }));
    await expectError(response, 400, 'INVALID_ARGUMENT', message);
  });

  it('accepts 64 arguments of 4096 characters', async () => {
    const testCommand = Array.from({ length: 64 }, () => 'y'.repeat(4096));
    const response = await create(jsonRequest('POST', '/tasks', { ...gitTask, testCommand }));
    expect(response.status).toBe(201);
  });

  it.each([
    ['maxIterations', 0],
    ['maxIterations', 11],
    ['maxIterations', 2.5],
    ['maxIterations', '3'],
    ['hypothesesPerIteration', 0],
    ['hypothesesPerIteration', 17],
  ])('refuses %s = %j', async (field, value) => {
    const response = await create(jsonRequest('POST', '/tasks', { ...gitTask, [field]: value }));
    await expectError(response, 400, 'INVALID_ARGUMENT', new RegExp(`^${field}: `));
  });

  it('refuses a body without gitUrl, pointing at the archive upload', async () => {
    const response = await create(jsonRequest('POST', '/tasks', { testCommand: ['pytest'] }));
    await expectError(response, 400, 'INVALID_ARGUMENT', /gitUrl is required.*multipart/);
  });

  it('refuses an "archive" in JSON with a hint', async () => {
    const response = await create(
      jsonRequest('POST', '/tasks', { ...gitTask, archive: 'UEsDBA==' }),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /multipart\/form-data/);
  });

  it('maps a refusal of the service to its status (422 for a bad URL)', async () => {
    vi.spyOn(fake.tasks, 'createTask').mockRejectedValueOnce(
      new AppError('URL_SCHEME', 'only https:// URLs are accepted'),
    );
    const response = await create(jsonRequest('POST', '/tasks', gitTask));
    await expectError(response, 422, 'URL_SCHEME', 'only https:// URLs are accepted');
  });

  it('refuses a body over the JSON cap: 413', async () => {
    const response = await create(
      jsonRequest('POST', '/tasks', { ...gitTask, ref: 'r'.repeat(2 * 1024 * 1024) }),
    );
    await expectError(response, 413, 'PAYLOAD_TOO_LARGE', /1 MiB/);
  });
});

describe('POST /api/v1/tasks with multipart/form-data', () => {
  const archive = new Uint8Array(Array.from({ length: 5000 }, (_, index) => index % 251));

  it('streams the archive to disk and hands it to the service: 201 {id}', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["cargo","test"]' },
        { name: 'maxIterations', value: '5' },
        { name: 'archive', value: archive, fileName: 'project.tar.gz' },
        { name: 'hypothesesPerIteration', value: '2' },
      ]),
    );
    const body = await readJson<{ id: string }>(response, 201);
    const [record] = fake.tasks.created;
    expect(record!.id).toBe(body.id);
    expect(record!.input.testCommand).toEqual(['cargo', 'test']);
    expect(record!.input.maxIterations).toBe(5);
    expect(record!.input.hypothesesPerIteration).toBe(2);
    const source = record!.input.source;
    expect(source.kind).toBe('archive');
    if (source.kind !== 'archive') return;
    expect(source.name).toBe('project.tar.gz');
    expect(source.file.startsWith(fake.runtime.uploadDir)).toBe(true);
    expect(source.file).toMatch(/[0-9a-f-]{36}\.upload$/);
    expect(Buffer.from(record!.archiveBytes!).equals(Buffer.from(archive))).toBe(true);
  });

  it('accepts an archive of exactly the cap', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'archive', value: new Uint8Array(maxUploadBytes), fileName: 'a.zip' },
      ]),
    );
    expect(response.status).toBe(201);
    expect(fake.tasks.created[0]!.archiveBytes!.length).toBe(maxUploadBytes);
  });

  it('keeps only the last segment of the client file name', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'archive', value: archive, fileName: '../../etc/passwd.zip' },
      ]),
    );
    expect(response.status).toBe(201);
    expect(fake.tasks.created[0]!.input.source).toMatchObject({ name: 'passwd.zip' });
  });

  it('creates a Git task from a form without an archive', async () => {
    const response = await create(
      multipartRequest([
        { name: 'gitUrl', value: 'https://example.com/r.git' },
        { name: 'ref', value: 'main' },
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'maxPids', value: '128' },
        { name: 'maxDiskMb', value: '' },
      ]),
    );
    expect(response.status).toBe(201);
    expect(fake.tasks.created[0]!.input.source).toEqual({
      kind: 'git',
      url: 'https://example.com/r.git',
      ref: 'main',
    });
    // A cap is a decimal field; an empty one takes the server's default.
    expect(fake.tasks.created[0]!.input.limits).toEqual({ maxPids: 128 });
  });

  it('refuses gitUrl and an archive together, leaving no file', async () => {
    const response = await create(
      multipartRequest([
        { name: 'gitUrl', value: 'https://example.com/r.git' },
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'archive', value: archive, fileName: 'a.zip' },
      ]),
    );
    await expectError(
      response,
      400,
      'INVALID_ARGUMENT',
      /either gitUrl or an archive file, not both/,
    );
    expect(await fake.uploads()).toEqual([]);
    expect(fake.tasks.created).toHaveLength(0);
  });

  it('refuses a form with neither gitUrl nor an archive', async () => {
    const response = await create(multipartRequest([{ name: 'testCommand', value: '["pytest"]' }]));
    await expectError(response, 400, 'INVALID_ARGUMENT', /has neither/);
  });

  it('refuses ref with an archive', async () => {
    const response = await create(
      multipartRequest([
        { name: 'ref', value: 'main' },
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'archive', value: archive, fileName: 'a.zip' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /ref applies to gitUrl only/);
    expect(await fake.uploads()).toEqual([]);
  });

  it('refuses unknown form fields, naming them, and deletes the upload', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'env', value: 'X=1' },
        { name: 'archive', value: archive, fileName: 'a.zip' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /unknown field "env"/);
    expect(await fake.uploads()).toEqual([]);
  });

  it('refuses a field named __proto__ as an unknown field', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: '__proto__', value: '{"gitUrl":"x"}' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /unknown field "__proto__"/);
  });

  it.each([
    ['not JSON', 'pytest -q', /testCommand must be a JSON array of strings/],
    ['a JSON string', '"pytest"', /testCommand/],
    ['an empty JSON array', '[]', /needs at least the program/],
  ])('refuses a testCommand field that is %s', async (_what, value, message) => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value },
        { name: 'archive', value: archive, fileName: 'a.zip' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', message);
    expect(await fake.uploads()).toEqual([]);
  });

  it('reads setupCommands as JSON, buildCommand as a command line, knownFailures by line', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["ctest","--test-dir","build"]' },
        { name: 'setupCommands', value: '[["cmake","-B","build"]]' },
        { name: 'buildCommand', value: "cmake --build build --target 'all tests'" },
        { name: 'knownFailures', value: 'net_download\r\n\n  dns_lookup  \n' },
        { name: 'archive', value: archive, fileName: 'a.zip' },
      ]),
    );
    expect(response.status).toBe(201);
    expect(fake.tasks.created[0]!.input).toMatchObject({
      setupCommands: [['cmake', '-B', 'build']],
      buildCommand: ['cmake', '--build', 'build', '--target', 'all tests'],
      knownFailures: ['net_download', 'dns_lookup'],
    });
  });

  it('reads buildCommand and knownFailures given as JSON arrays, "[]" as no setup', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'setupCommands', value: '[]' },
        { name: 'buildCommand', value: '["python3","-m","compileall","."]' },
        { name: 'knownFailures', value: '["t.py::a b"]' },
        { name: 'archive', value: archive, fileName: 'a.zip' },
      ]),
    );
    expect(response.status).toBe(201);
    expect(fake.tasks.created[0]!.input).toMatchObject({
      setupCommands: [],
      buildCommand: ['python3', '-m', 'compileall', '.'],
      knownFailures: ['t.py::a b'],
    });
  });

  it('leaves an empty setupCommands field out: detected from the tree', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'setupCommands', value: '' },
        { name: 'archive', value: archive, fileName: 'a.zip' },
      ]),
    );
    expect(response.status).toBe(201);
    expect(fake.tasks.created[0]!.input.setupCommands).toBeUndefined();
  });

  it.each([
    ['setupCommands', 'npm ci', /^setupCommands must be a JSON array of commands/],
    ['setupCommands', '[["npm",""]]', /^setupCommands\[0\]\[1\]: an argument may not be empty/],
    ['buildCommand', 'make && make install', /^buildCommand: '&&' is a shell operator/],
    ['buildCommand', 'make $TARGET', /^buildCommand: \$TARGET would be expanded/],
    ['buildCommand', '["make"', /^buildCommand must be a JSON array of strings or a command line/],
    ['knownFailures', '[1]', /^knownFailures\[0\]: /],
  ])('refuses a %s field %j, naming it, and deletes the upload', async (name, value, message) => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name, value },
        { name: 'archive', value: archive, fileName: 'a.zip' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', message);
    expect(await fake.uploads()).toEqual([]);
    expect(fake.tasks.created).toHaveLength(0);
  });

  it('refuses a count that is not a whole number', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'maxIterations', value: 'three' },
        { name: 'archive', value: archive, fileName: 'a.zip' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /maxIterations must be a whole number/);
  });

  it('refuses a file in another field', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'upload', value: archive, fileName: 'a.zip' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /unknown file field "upload"/);
    expect(await fake.uploads()).toEqual([]);
  });

  it('refuses a second archive', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'archive', value: archive, fileName: 'a.zip' },
        { name: 'archive', value: archive, fileName: 'b.zip' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /one file only/);
    expect(await fake.uploads()).toEqual([]);
  });

  it('refuses "archive" sent as a text field', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'archive', value: 'not a file' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /must be a file part/);
  });

  it('refuses a field given twice', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'testCommand', value: '["cargo","test"]' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /"testCommand" is given twice/);
  });

  it('refuses an empty archive', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'archive', value: new Uint8Array(0), fileName: 'a.zip' },
      ]),
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /empty/);
    expect(await fake.uploads()).toEqual([]);
  });

  it('refuses a body cut off before its final boundary, leaving no file', async () => {
    const full = multipartBody([
      { name: 'testCommand', value: '["pytest"]' },
      { name: 'archive', value: archive, fileName: 'a.zip' },
    ]);
    const request = new Request(`${base}/tasks`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: full.slice(0, full.length - 200),
    });
    await expectError(await create(request), 400, 'INVALID_ARGUMENT', /malformed multipart/);
    expect(await fake.uploads()).toEqual([]);
  });

  it('refuses a multipart content type without a boundary', async () => {
    const request = new Request(`${base}/tasks`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'multipart/form-data' },
      body: 'whatever',
    });
    await expectError(await create(request), 400, 'INVALID_ARGUMENT', /malformed multipart/);
  });

  it('refuses an archive one byte over the cap: 413 naming the limit, partial file deleted', async () => {
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["pytest"]' },
        { name: 'archive', value: new Uint8Array(maxUploadBytes + 1), fileName: 'a.zip' },
      ]),
    );
    const error = await expectError(response, 413, 'PAYLOAD_TOO_LARGE', /64 KiB \(65536 bytes\)/);
    expect(error.details).toEqual({ limitBytes: maxUploadBytes });
    expect(await fake.uploads()).toEqual([]);
    expect(fake.tasks.created).toHaveLength(0);
  });

  it('stops reading a streamed upload over the cap and deletes the partial file', async () => {
    const chunk = new Uint8Array(16 * 1024).fill(7);
    const totalChunks = 1024; // 16 MiB on offer; the cap is 64 KiB
    let sent = 0;
    const encoder = new TextEncoder();
    async function* body(): AsyncGenerator<Uint8Array> {
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="testCommand"\r\n\r\n["pytest"]\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="archive"; filename="big.zip"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      for (let index = 0; index < totalChunks; index++) {
        sent++;
        // Let the server side see part of the file before the rest arrives.
        if (index === 2) await new Promise((resolve) => setTimeout(resolve, 20));
        yield chunk;
      }
      yield encoder.encode(`\r\n--${boundary}--\r\n`);
    }
    const request = streamedRequest('POST', '/tasks', body, {
      ...auth(),
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
    });
    const response = await create(request);
    await expectError(response, 413, 'PAYLOAD_TOO_LARGE', /65536 bytes/);
    expect(await fake.uploads()).toEqual([]);
    expect(sent).toBeLessThan(totalChunks / 4);
  });

  it('refuses a declared Content-Length far over the cap without reading the body', async () => {
    let pulled = false;
    const request = new Request(`${base}/tasks`, {
      method: 'POST',
      headers: {
        ...auth(),
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(1024 * 1024 * 1024),
      },
      body: new ReadableStream(
        {
          pull(controller) {
            pulled = true;
            controller.close();
          },
        },
        { highWaterMark: 0 },
      ),
      duplex: 'half',
    } as RequestInit);
    await expectError(await create(request), 413, 'PAYLOAD_TOO_LARGE');
    expect(pulled).toBe(false);
  });

  it('deletes the upload when the service refuses before taking it', async () => {
    vi.spyOn(fake.tasks, 'createTask').mockRejectedValueOnce(
      new AppError('COMMAND_NOT_ALLOWED', 'rm is not a test runner'),
    );
    const response = await create(
      multipartRequest([
        { name: 'testCommand', value: '["rm","-rf","/"]' },
        { name: 'archive', value: archive, fileName: 'a.zip' },
      ]),
    );
    await expectError(response, 400, 'COMMAND_NOT_ALLOWED');
    expect(await fake.uploads()).toEqual([]);
  });
});
