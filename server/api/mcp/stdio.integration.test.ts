import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotTreeWithTimes as snapshotTree } from '../../test-support/tree-snapshot';
import { copyProject, fixtureProject, readTree } from '../../test-support/projects';
import { call, errorOf, textOf } from './test-support/clients';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(repoRoot, 'bin', 'shadowbox.mjs');
const project = fixtureProject('pytest-calc');
/** Real test runs may take longer than the SDK's default 60 s request timeout on a busy machine. */
const longCall = { timeout: 170_000 };

let dataDir: string;
let client: Client;
let stderr = '';

/** The environment of `npx shadowbox mcp` as an MCP client starts it, with its own data dir. */
const serverEnv = (): Record<string, string> => ({
  ...getDefaultEnvironment(),
  SHADOWBOX_DATA_DIR: dataDir,
});

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-mcp-stdio-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp'],
    cwd: repoRoot,
    env: serverEnv(),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  client = new Client({ name: 'shadowbox-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('npx shadowbox mcp (stdio)', () => {
  it('lists the tools; none approves or rejects', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names.sort()).toEqual([
      'compare_hypotheses',
      'create_task',
      'get_batch',
      'get_diff',
      'get_task',
      'list_threads',
      'milestone',
      'reply_to_thread',
      'shadow_run',
      'stop_waiting',
      'submit_hypotheses',
    ]);
    expect(names.filter((name) => /approve|reject|review/.test(name))).toEqual([]);
  });

  it('runs shadow_run on a real project: the right fix wins and the workspace is untouched', async () => {
    const workspace = await copyProject(project);
    try {
      const files = await readTree(workspace);
      const before = await snapshotTree(workspace);
      const { right, wrong } = project.hypotheses;
      const result = await call(
        client,
        'shadow_run',
        {
          hypotheses: [{ name: 'baseline' }, wrong, right],
          command: [...project.testCommand],
          workspace,
        },
        longCall,
      );
      expect(result.isError, `${textOf(result)}\n${stderr}`).toBeFalsy();
      const report = result.structuredContent as {
        winner: string | null;
        winnerDiff: string | null;
        applied: boolean;
        hypotheses: { name: string; rank: number; failed: number; outputTail: string }[];
      };
      expect(Object.keys(report).sort()).toEqual([
        'applied',
        'hypotheses',
        'mode',
        'winner',
        'winnerDiff',
      ]);
      expect(report.winner).toBe(right.name);
      expect(report.applied).toBe(false);
      expect(report.winnerDiff).toContain(project.buggyFile);
      expect(report.hypotheses[0]).toMatchObject({ name: right.name, rank: 1, failed: 0 });
      const baseline = report.hypotheses.find((h) => h.name === 'baseline');
      expect(baseline?.failed).toBe(project.tests.failingAtBaseline);
      expect(baseline?.outputTail).toContain('test_mean');
      expect(textOf(result)).toContain(`winner: ${right.name}`);
      expect(textOf(result)).toContain('--- output of baseline (tail) ---');

      expect(await readTree(workspace)).toEqual(files);
      expect(await snapshotTree(workspace)).toEqual(before);
    } finally {
      await rm(path.dirname(workspace), { recursive: true, force: true });
    }
  });

  it('refuses create_task with a private-address Git URL (URL_PRIVATE_ADDRESS)', async () => {
    const result = await call(client, 'create_task', {
      gitUrl: 'https://192.168.1.10/team/repo.git',
      testCommand: [...project.testCommand],
    });
    expect(errorOf(result)).toMatchObject({ code: 'URL_PRIVATE_ADDRESS' });
  });
});

describe('the stdio process', () => {
  /** Spawns `shadowbox mcp`, initializes, and collects stdout. */
  async function start() {
    const child = spawn(process.execPath, [cli, 'mcp'], {
      cwd: repoRoot,
      env: serverEnv() as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'test', version: '1' },
        },
      })}\n`,
    );
    await expect.poll(() => stdout.includes('\n'), { timeout: 60_000 }).toBe(true);
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    return { child, exited, stdout: () => stdout };
  }

  it('exits 0 when stdin ends, having written only JSON-RPC to stdout', async () => {
    const { child, exited, stdout } = await start();
    child.stdin.end();
    const [code] = await exited;
    expect(code).toBe(0);
    for (const line of stdout().trimEnd().split('\n')) {
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    }
  });

  it('exits 0 on SIGINT', async () => {
    const { child, exited } = await start();
    child.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(0);
  });
});
