import type { McpTool } from '../define-tool';
import { compareHypothesesTool } from './compare-hypotheses';
import { createTaskTool } from './create-task';
import { getBatchTool } from './get-batch';
import { getDiffTool } from './get-diff';
import { getTaskTool } from './get-task';
import { listThreadsTool } from './list-threads';
import { milestoneTool } from './milestone';
import { replyToThreadTool } from './reply-to-thread';
import { stopWaitingTool } from './stop-waiting';
import { shadowRunTool } from './shadow-run';
import { submitHypothesesTool } from './submit-hypotheses';

/**
 * Every MCP tool. None approves, rejects, requests changes or resolves a thread: review stays with
 * a person (reviewer tokens, the UI); an agent reads the threads and replies to them.
 */
export const mcpTools: readonly McpTool[] = [
  shadowRunTool,
  createTaskTool,
  submitHypothesesTool,
  getTaskTool,
  getDiffTool,
  compareHypothesesTool,
  getBatchTool,
  milestoneTool,
  listThreadsTool,
  replyToThreadTool,
  stopWaitingTool,
];
