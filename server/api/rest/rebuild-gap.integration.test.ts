import { afterAll, beforeAll, describe, it } from 'vitest';
import { createApiToken } from '../../auth/api-tokens';
import { userIn } from '../../test-support/actors';
import { openScratchRuntime, type ScratchRuntime } from '../../test-support/scratch-runtime';
import { handleCreateTask } from './create-task';
import { expectError } from './test-support/assertions';
import { auth, jsonRequest } from './test-support/requests';

// #23 item 2 over REST on a real runtime: a task whose own setup builds, whose tests do not
// rebuild and which gives no build step is refused with 400 before anything is fetched.

let scratch: ScratchRuntime;
let token: string;

beforeAll(async () => {
  scratch = await openScratchRuntime('sbx-rest-rebuild-');
  await userIn(scratch.runtime.db, 'ada', 'author');
  token = (await createApiToken(scratch.runtime.db, { user: 'ada', scopes: ['agent'], name: 'a' }))
    .token;
});

afterAll(async () => {
  await scratch.close();
});

describe('POST /api/v1/tasks with a setup that builds and no build step', () => {
  it('answers 400 INVALID_ARGUMENT naming the build step to add', async () => {
    const response = await handleCreateTask(
      jsonRequest(
        'POST',
        '/tasks',
        {
          gitUrl: 'https://example.com/calc.git',
          testCommand: ['ctest', '--test-dir', 'build'],
          setupCommands: [
            ['cmake', '-S', '.', '-B', 'build'],
            ['make', '-C', 'build'],
          ],
        },
        auth(token),
      ),
      { runtime: scratch.runtime },
      undefined,
    );
    await expectError(
      response,
      400,
      'INVALID_ARGUMENT',
      'setup command 2 (make -C build) builds, but the test command (ctest --test-dir build) ' +
        'does not rebuild, so every hypothesis would test the binaries built before its change: ' +
        'add buildCommand ["make","-C","build"]; it runs in the sandbox before the tests of every run',
    );
  });
});
