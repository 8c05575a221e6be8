import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { AppError } from '../../../errors/app-error';
import { requireSession } from './session';
import type { Runtime } from '../../../runtime';
import { errorResponse } from '../../http/errors';
import { jsonResponse } from '../../http/http-helpers';
import { receiveMultipartUpload } from '../../http/multipart-upload';
import {
  buildCommandSchema,
  createTaskFieldsSchema,
  knownFailuresSchema,
  setupCommandsSchema,
  testCommandSchema,
} from '../../http/schemas';
import { pickRunLimits } from '../../../engine/sandbox';
import { parseWith } from '../../http/validation';
import { requestOrigin, requireUi } from '../request-guard';

export type UploadRuntime = Pick<Runtime, 'tasks' | 'uploadDir' | 'maxUploadBytes' | 'accounts'>;

export const archiveField = 'archive';

const decimal = z
  .string()
  .regex(/^\d{1,6}$/, 'must be a whole number')
  .transform(Number)
  .pipe(z.int().min(1));

/** A form field holding JSON, checked with `schema` once parsed. */
const json = <T extends z.ZodType>(schema: T, what: string) =>
  z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: `must be ${what}` });
        return z.NEVER;
      }
    })
    .pipe(schema);

const caps = createTaskFieldsSchema.shape;

// Text fields of the form; the commands are argv as JSON arrays (the UI splits the lines).
const uploadFieldsSchema = z.strictObject({
  testCommand: json(testCommandSchema, 'a JSON array of strings'),
  title: caps.title,
  problem: caps.problem,
  issueUrl: caps.issueUrl,
  maxIterations: decimal.pipe(z.int().max(10)).optional(),
  hypothesesPerIteration: decimal.pipe(z.int().max(16)).optional(),
  hypothesisWaitSecs: decimal.pipe(caps.hypothesisWaitSecs.unwrap()).optional(),
  maxMemoryMb: decimal.pipe(caps.maxMemoryMb.unwrap()).optional(),
  maxPids: decimal.pipe(caps.maxPids.unwrap()).optional(),
  maxDiskMb: decimal.pipe(caps.maxDiskMb.unwrap()).optional(),
  maxInodes: decimal.pipe(caps.maxInodes.unwrap()).optional(),
  setupCommands: json(setupCommandsSchema, 'a JSON array of argv arrays').optional(),
  buildCommand: json(buildCommandSchema, 'a JSON array of strings').optional(),
  knownFailures: json(knownFailuresSchema, 'a JSON array of test ids').optional(),
  team: caps.team,
});

/**
 * `POST /api/uploads/tasks`: the UI's archive upload (XMLHttpRequest, for its progress events).
 * The same multipart handling as `POST /api/v1/tasks`, as the signed-in person; answers
 * `201 {"id"}` or `{"error":{"code","message"}}` with the code's status.
 */
export async function handleUploadTask(
  request: Request,
  loadRuntime: () => Promise<UploadRuntime>,
): Promise<Response> {
  try {
    requireUi(requestOrigin(request.headers));
    const runtime = await loadRuntime();
    // Before the body is read: nobody's upload is stored for nothing.
    const actor = await requireSession(runtime, request.headers);
    const upload = await receiveMultipartUpload(request, {
      uploadDir: runtime.uploadDir,
      fileField: archiveField,
      maxFileBytes: runtime.maxUploadBytes,
    });
    try {
      const text = Object.fromEntries([...upload.fields].filter(([, value]) => value !== ''));
      const fields = parseWith(uploadFieldsSchema, text, 'form');
      if (upload.file === null) {
        throw new AppError('INVALID_ARGUMENT', `choose an archive (the field "${archiveField}")`);
      }
      if (upload.file.bytes === 0) {
        throw new AppError('INVALID_ARGUMENT', 'the uploaded archive is empty');
      }
      const { id } = await runtime.tasks.createTask(
        {
          source: { kind: 'archive', file: upload.file.path, name: upload.file.fileName },
          testCommand: fields.testCommand,
          title: fields.title,
          problem: fields.problem,
          issueUrl: fields.issueUrl,
          maxIterations: fields.maxIterations,
          hypothesesPerIteration: fields.hypothesesPerIteration,
          hypothesisWaitSecs: fields.hypothesisWaitSecs,
          limits: pickRunLimits(fields),
          setupCommands: fields.setupCommands,
          buildCommand: fields.buildCommand,
          knownFailures: fields.knownFailures,
          team: fields.team,
        },
        actor,
      );
      return jsonResponse({ id }, 201, { Location: `/coding/${encodeURIComponent(id)}` });
    } catch (error) {
      // Refused before the task service took the file: it must not stay behind.
      if (upload.file !== null) await rm(upload.file.path, { force: true });
      throw error;
    }
  } catch (error) {
    return errorResponse(error);
  }
}
