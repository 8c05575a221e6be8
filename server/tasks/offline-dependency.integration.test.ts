// Issue 23, item 4: a Go module or a crate that tests could not fetch (runs are offline; only
// setup reaches the network) ended the task as "could not be read as test results". Through the
// real sandbox, the baseline now says which module or crate is missing and the way out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRuntime } from '../runtime';
import { tokenIn } from '../test-support/actors';
import { settled, uploadTree, waitForView } from '../test-support/task-waits';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import type { Actor, TaskView } from './task-api';

let scratch: ScratchRuntime;
let runtime: ServerRuntime;
let agent: Actor;

beforeAll(async () => {
  scratch = await openScratchRuntime('sbx-offline-dep-', { gatherMs: 300 });
  runtime = scratch.runtime;
  agent = await tokenIn(runtime.db, 'alice', ['agent']);
}, 120_000);

afterAll(async () => {
  await scratch.close();
});

async function failedTask(
  name: string,
  files: Record<string, string>,
  testCommand: string[],
): Promise<TaskView> {
  const { id } = await runtime.tasks.createTask(
    {
      source: {
        kind: 'archive',
        file: await uploadTree(runtime, name, files),
        name: `${name}.tar.gz`,
      },
      testCommand,
      maxIterations: 1,
      // No setup: nothing fetches the dependency, as when a user leaves it out.
      setupCommands: [],
    },
    agent,
  );
  return waitForView(runtime, id, agent, settled, 240_000);
}

const noSetup = (fetch: string): string =>
  `this task ran no setup (give it setupCommands [[${fetch
    .split(' ')
    .map((w) => `"${w}"`)
    .join(', ')}]], or leave setupCommands out to have them detected)`;

describe('the baseline names a dependency tests could not fetch offline', () => {
  it('a Go module not in the workspace', async () => {
    const hash = 'h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
    const task = await failedTask(
      'go-offline',
      {
        'go.mod': 'module example.com/app\n\ngo 1.19\n\nrequire example.com/x v1.2.3\n',
        'go.sum': `example.com/x v1.2.3 ${hash}\nexample.com/x v1.2.3/go.mod ${hash}\n`,
        'app.go':
          'package app\n\nimport "example.com/x"\n\nfunc Add(a, b int) int { return x.Add(a, b) }\n',
        'app_test.go':
          'package app\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("no")\n\t}\n}\n',
      },
      ['go', 'test', './...'],
    );
    expect(task.status).toBe('failed');
    expect(task.error).toBe(
      `module example.com/x is not in the workspace, and tests run offline: setup must download it (go mod download); ${noSetup('go mod download')}`,
    );
  });

  it('a crate not downloaded', async () => {
    const task = await failedTask(
      'rust-offline',
      {
        'Cargo.toml':
          '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nshadowbox-absent-crate = "0.1.0"\n',
        'Cargo.lock': [
          'version = 3',
          '',
          '[[package]]',
          'name = "app"',
          'version = "0.1.0"',
          'dependencies = [',
          ' "shadowbox-absent-crate",',
          ']',
          '',
          '[[package]]',
          'name = "shadowbox-absent-crate"',
          'version = "0.1.0"',
          'source = "registry+https://github.com/rust-lang/crates.io-index"',
          `checksum = "${'0'.repeat(64)}"`,
          '',
        ].join('\n'),
        'src/lib.rs':
          'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n',
      },
      ['cargo', 'test'],
    );
    expect(task.status).toBe('failed');
    expect(task.error).toBe(
      `crate shadowbox-absent-crate is not in the workspace, and tests run offline: setup must download it (cargo fetch); ${noSetup('cargo fetch')}`,
    );
  });
});
