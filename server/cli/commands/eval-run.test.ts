import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo, type MemoryIo } from '../test-support/memory-io';
import { evalRunCommand } from './eval-run';

// Argument handling only: every case is refused before a runtime opens. DATABASE_URL points at a
// port nothing listens on, so a case that reached the database would exit 1, not 2.
let dir = '';
const instance = {
  instance_id: 'calc__mean',
  repo: '/nowhere',
  base_commit: 'a'.repeat(40),
  patch: '',
  test_patch: '',
  problem_statement: 'mean floors',
  FAIL_TO_PASS: ['t::mean'],
  PASS_TO_PASS: [],
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-run-cli-'));
  await writeFile(path.join(dir, 'set.jsonl'), `${JSON.stringify(instance)}\n`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(args: readonly string[]) {
  const cli: MemoryIo = {
    ...memoryIo(),
    cwd: dir,
    env: { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/never' },
  };
  const code = await evalRunCommand(args, cli);
  return { code, out: cli.out(), err: cli.err() };
}

const base = ['set.jsonl', '--fixer', 'llm', '--as', 'alice', '--out', 'RUN.json'];

describe('shadowbox eval run arguments', () => {
  it('prints its help with the exit statuses', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('Usage: shadowbox eval run SET.jsonl');
    expect(result.out).toContain('Exit status:');
  });

  it('documents --agent mcp: the env it gives the agent, that it runs on the host, the spend', async () => {
    const { out } = await run(['--help']);
    expect(out).toContain('--agent-command ARGV');
    expect(out).toMatch(/SHADOWBOX_TASK_ID,\s+SHADOWBOX_TOKEN/);
    expect(out).toContain('SHADOWBOX_MCP_COMMAND');
    expect(out).toMatch(/runs on this machine as your own program/);
    expect(out).toMatch(/0 for an external fixer/);
  });

  const agentBase = ['set.jsonl', '--agent', 'mcp', '--as', 'alice', '--out', 'RUN.json'];
  it.each([
    [agentBase, /--agent mcp needs --agent-command ARGV/],
    [
      [...agentBase, '--agent-command', 'node a.mjs', '--fixer', 'llm'],
      /--agent mcp replaces --fixer/,
    ],
    [
      [...agentBase, '--agent-command', 'node a.mjs', '--model', 'm'],
      /--model picks the LLM fixer/,
    ],
    [
      [...agentBase.map((a) => (a === 'mcp' ? 'http' : a)), '--agent-command', 'x'],
      /--agent http is unknown/,
    ],
    [[...base, '--agent-command', 'node a.mjs'], /--agent-command needs --agent mcp/],
    [[...agentBase, '--agent-command', '[1]'], /--agent-command is not a JSON array of strings/],
    [[...agentBase, '--agent-command', '  '], /--agent-command is empty/],
  ])('refuses the agent options %j with exit 2', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it('takes --agent mcp with --agent-command past the option checks, as far as the set', async () => {
    // The set has no test_command: refused there (exit 2), past every agent check and the LLM's.
    const result = await run([...agentBase, '--agent-command', '["node","agent.mjs"]']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/have no test_command/);
  });

  it.each([
    [['set.jsonl', '--as', 'alice', '--out', 'RUN.json'], /--fixer llm or --agent mcp is required/],
    [['set.jsonl', '--fixer', 'llm', '--out', 'RUN.json'], /--as USER is required/],
    [['set.jsonl', '--fixer', 'llm', '--as', 'alice'], /--out RUN.json is required/],
    [[...base, '-k', '0'], /-k must be a whole number from 1/],
    [[...base, '--parallel', 'x'], /--parallel must be/],
    [[...base, '--test-command', '["pytest", 3]'], /not a JSON array of strings/],
  ])('refuses %j with exit 2', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it('refuses a set whose instances have no test_command unless --test-command is given', async () => {
    const result = await run(base);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /1 instance\(s\) have no test_command \(calc__mean…\): give --test-command/,
    );
  });
});
