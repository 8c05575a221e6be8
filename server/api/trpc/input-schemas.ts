import { z } from 'zod';
import { hypothesisSchema } from '../../engine/shadow';
import { createTaskFieldsSchema, reviewBodySchema, testCommandSchema } from '../http/schemas';

/** Input schemas of the UI's procedures; the field rules are the REST API's. */

// Task ids are cuids; the REST transport checks the same shape.
export const taskIdSchema = z.string().regex(/^[a-z0-9]{20,40}$/, 'not a task id');

export const taskInputSchema = z.object({ taskId: taskIdSchema });

export const createTaskInputSchema = z.strictObject({
  gitUrl: z.string().trim().min(1, 'give a Git URL').max(2048),
  ref: z.string().trim().min(1).max(255).optional(),
  testCommand: testCommandSchema,
  title: createTaskFieldsSchema.shape.title,
  problem: createTaskFieldsSchema.shape.problem,
  issueUrl: createTaskFieldsSchema.shape.issueUrl,
  maxIterations: z.int().min(1).max(10).optional(),
  hypothesesPerIteration: z.int().min(1).max(16).optional(),
  hypothesisWaitSecs: createTaskFieldsSchema.shape.hypothesisWaitSecs,
  maxMemoryMb: createTaskFieldsSchema.shape.maxMemoryMb,
  maxPids: createTaskFieldsSchema.shape.maxPids,
  maxDiskMb: createTaskFieldsSchema.shape.maxDiskMb,
  maxInodes: createTaskFieldsSchema.shape.maxInodes,
  setupCommands: createTaskFieldsSchema.shape.setupCommands,
  buildCommand: createTaskFieldsSchema.shape.buildCommand,
  knownFailures: createTaskFieldsSchema.shape.knownFailures,
  team: createTaskFieldsSchema.shape.team,
});

export const submitHypothesisInputSchema = z.strictObject({
  taskId: taskIdSchema,
  hypothesis: hypothesisSchema,
});

export const reviewInputSchema = reviewBodySchema.extend({ taskId: taskIdSchema });

export const readFileInputSchema = z.strictObject({
  taskId: taskIdSchema,
  path: z.string().min(1).max(4096),
});

export const eventsInputSchema = z.object({
  taskId: taskIdSchema,
  /** Set by the SSE link on a reconnect: the seq of the last event the client has. */
  lastEventId: z
    .string()
    .regex(/^\d{1,15}$/)
    .nullish(),
});
