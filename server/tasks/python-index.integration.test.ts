// Issue 23, item 4: a detected Python setup whose index the egress allowlist refused named the
// host but not the ways out; and an index given through pip's own configuration (pip.conf) never
// reached setup, whose pip runs with a private HOME and none of the server's variables. Both
// through the real sandbox and egress proxy, with a PEP 503 index this test serves on loopback.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRuntime } from '../runtime';
import { tokenIn } from '../test-support/actors';
import { settled, waitForView } from '../test-support/task-waits';
import { buildWheel } from '../test-support/egress-fixtures';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import type { Actor, TaskView } from './task-api';

let dir: string;
let index: http.Server;
let indexUrl: string;
const opened: ScratchRuntime[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-pyindex-'));
  const wheel = await readFile(await buildWheel(dir));
  const name = 'tinypkg-0.1-py3-none-any.whl';
  index = http.createServer((req, res) => {
    if (req.url === '/simple/tinypkg/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body><a href="/files/${name}">${name}</a></body></html>\n`);
    } else if (req.url === `/files/${name}`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(wheel);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => index.listen(0, '127.0.0.1', resolve));
  indexUrl = `http://127.0.0.1:${(index.address() as AddressInfo).port}/simple/`;
  // The server's own pip configuration, as an operator writes it: a file pip reads, not a
  // variable Shadowbox documents. It is read on the first setup of this process.
  const conf = path.join(dir, 'pip.conf');
  await writeFile(conf, `[global]\nindex-url = ${indexUrl}\n`);
  process.env.PIP_CONFIG_FILE = conf;
}, 60_000);

afterAll(async () => {
  delete process.env.PIP_CONFIG_FILE;
  for (const scratch of opened) await scratch.close();
  index.close();
  await rm(dir, { recursive: true, force: true });
});

async function serverWith(egressAllow?: string): Promise<{ runtime: ServerRuntime; agent: Actor }> {
  const scratch = await openScratchRuntime(
    'sbx-pyindex-rt-',
    { gatherMs: 300 },
    egressAllow === undefined ? {} : { egressAllow },
  );
  opened.push(scratch);
  return { runtime: scratch.runtime, agent: await tokenIn(scratch.runtime.db, 'alice', ['agent']) };
}

/** A project whose tests need tinypkg from the index; one of its tests fails (a bug to fix). */
const project: Record<string, string> = {
  'requirements.txt': 'tinypkg==0.1\n',
  'calc.py':
    'import tinypkg\n\n\ndef answer():\n    return tinypkg.VALUE\n\n\ndef add(a, b):\n    return a - b\n',
  'test_calc.py': [
    'import unittest',
    '',
    'from calc import add, answer',
    '',
    '',
    'class CalcTest(unittest.TestCase):',
    '    def test_answer(self):',
    '        self.assertEqual(answer(), 42)',
    '',
    '    def test_add(self):',
    '        self.assertEqual(add(2, 3), 5)',
    '',
  ].join('\n'),
};

async function settledTask(runtime: ServerRuntime, agent: Actor): Promise<TaskView> {
  const work = await mkdtemp(path.join(dir, 'proj-'));
  for (const [relative, content] of Object.entries(project)) {
    await mkdir(path.dirname(path.join(work, relative)), { recursive: true });
    await writeFile(path.join(work, relative), content);
  }
  const file = path.join(runtime.uploadDir, `py-${Date.now()}.tar.gz`);
  await execa('tar', ['-czf', file, '-C', work, '.']);
  const { id } = await runtime.tasks.createTask(
    {
      source: { kind: 'archive', file, name: 'py.tar.gz' },
      testCommand: ['.venv/bin/python', '-m', 'unittest', '-v'],
      maxIterations: 1,
    },
    agent,
  );
  return waitForView(runtime, id, agent, settled, 240_000);
}

describe("a Python project's package index", () => {
  it("a local index given through the server's pip.conf: setup installs through the egress proxy and the task reaches its baseline", async () => {
    const { runtime, agent } = await serverWith();
    const task = await settledTask(runtime, agent);
    expect(task.error ?? task.status).toBe('awaiting_hypotheses');
    expect(task.setup?.egress).toContainEqual(
      expect.objectContaining({ host: '127.0.0.1', allowed: true }),
    );
    expect(task.baseline).toMatchObject({ passed: 1, failed: 1 });
  });

  it('a refused index: the failure names the requirement and lists the ways out', async () => {
    const { runtime, agent } = await serverWith('none');
    const task = await settledTask(runtime, agent);
    expect(task.status).toBe('failed');
    const port = new URL(indexUrl).port;
    expect(task.error).toBe(
      "setup command `.venv/bin/pip install -r requirements.txt` exited with code 1: tinypkg==0.1 could not be installed. Ways out: run no setup (give the task setupCommands [], or your own commands); point the server's pip at an index it can reach (PIP_INDEX_URL or PIP_EXTRA_INDEX_URL in its environment, or index-url in its pip.conf; now " +
        `${indexUrl}): setup's pip gets the same setting and the egress allowlist allows its host; or add the refused host to SHADOWBOX_EGRESS_ALLOW; refused: 127.0.0.1:${port}`,
    );
  });
});
