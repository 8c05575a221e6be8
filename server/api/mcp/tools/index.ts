import type { McpTool } from '../define-tool';
import { createTaskTool } from './create-task';
import { getDiffTool } from './get-diff';
import { getTaskTool } from './get-task';
import { milestoneTool } from './milestone';
import { shadowRunTool } from './shadow-run';
import { submitHypothesesTool } from './submit-hypotheses';

/** Every MCP tool. None approves or rejects: review stays with a person (reviewer tokens, the UI). */
export const mcpTools: readonly McpTool[] = [
  shadowRunTool,
  createTaskTool,
  submitHypothesesTool,
  getTaskTool,
  getDiffTool,
  milestoneTool,
];
