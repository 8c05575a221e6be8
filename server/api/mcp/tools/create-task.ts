import { z } from 'zod';
import { pickRunLimits } from '../../../engine/sandbox';
import { createTaskFieldsSchema } from '../../http/schemas';
import { defineTool } from '../define-tool';

const fields = createTaskFieldsSchema.shape;

// The REST fields (the same limits and messages), with the Git URL required: archives are uploads,
// which MCP does not carry.
const input = z.strictObject({
  gitUrl: fields.gitUrl
    .unwrap()
    .describe('https:// URL of a public Git repository (archives are not offered over MCP)'),
  ref: fields.ref.describe('branch, tag or commit; default HEAD'),
  testCommand: fields.testCommand.describe(
    'argv of the test command, checked by the command policy, e.g. ["python3","-m","pytest","-q"]',
  ),
  title: fields.title.describe(
    "what the task is for, one line (default: the repository's name and ref)",
  ),
  problem: fields.problem.describe(
    'the bug report or issue text (Markdown, at most 64 KB): fixers and reviewers read it first',
  ),
  issueUrl: fields.issueUrl.describe('https:// link to the issue (shown, never fetched)'),
  maxIterations: fields.maxIterations,
  hypothesesPerIteration: fields.hypothesesPerIteration,
  hypothesisWaitSecs: fields.hypothesisWaitSecs.describe(
    'seconds an iteration waits for hypotheses (default 1800); then a checkpoint that fixed some failures goes to review, partial',
  ),
  fixer: fields.fixer.describe(
    "'external' (default): hypotheses come from you; 'llm': the server's model proposes them",
  ),
  allowTestEdits: fields.allowTestEdits.describe('let hypotheses that edit tests win'),
  maxTokens: fields.maxTokens.describe("LLM budget in tokens (fixer 'llm')"),
  maxMemoryMb: fields.maxMemoryMb.describe(
    "memory cap of each test run, MB (default: the server's, 4096)",
  ),
  maxPids: fields.maxPids.describe("process cap of each test run (default: the server's, 1024)"),
  maxDiskMb: fields.maxDiskMb.describe(
    "what each test run may write, MB (default: the server's, 4096)",
  ),
  maxInodes: fields.maxInodes.describe(
    "files each test run may create (default: the server's, 200000)",
  ),
  plan: fields.plan.describe(
    'steps, each with gate commands (argv) that must run green after the last write for milestone done',
  ),
  setupCommands: fields.setupCommands.describe(
    'install dependencies once, before the baseline, with network only through the egress ' +
      'allowlist (argv each, e.g. [["npm","ci"]]); left out: detected from the tree; []: no setup',
  ),
  buildCommand: fields.buildCommand.describe(
    'argv run before the test command in every run, offline, e.g. ["cmake","--build","build"]',
  ),
  knownFailures: fields.knownFailures.describe(
    'test ids that may keep failing (environmental): the task is green without them',
  ),
  team: fields.team.describe('a team you belong to: its members see the task; default: only you'),
});

export const createTaskTool = defineTool({
  name: 'create_task',
  title: 'Create a task',
  description:
    'Creates a task from a Git URL and a test command: the server checks the source and the commands, ' +
    'makes a worktree, runs the setup (dependencies) and the baseline, then waits for hypotheses ' +
    '(submit_hypotheses). Returns its id.',
  input,
  output: z.object({ id: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(
    { gitUrl, ref, maxMemoryMb, maxPids, maxDiskMb, maxInodes, ...rest },
    { services, actor },
  ) {
    const { id } = await services.tasks.createTask(
      {
        source: { kind: 'git', url: gitUrl, ref },
        ...rest,
        limits: pickRunLimits({ maxMemoryMb, maxPids, maxDiskMb, maxInodes }),
      },
      actor,
    );
    return { id };
  },
});
