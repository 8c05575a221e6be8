import { rm } from 'node:fs/promises';
import { pickRunLimits } from '../../engine/sandbox';
import { AppError } from '../../errors/app-error';
import type { Actor, CreateTaskInput, TaskSourceInput } from '../../tasks/task-api';
import { isJsonMediaType, jsonResponse, mediaTypeOf } from '../http/http-helpers';
import { readJsonBody } from '../http/json-body';
import { receiveMultipartUpload, type UploadedFile } from '../http/multipart-upload';
import { bodyLimits, createTaskFieldsSchema, type CreateTaskFields } from '../http/schemas';
import { parseWith } from '../http/validation';
import { authenticate } from './auth';
import { restHandler, type RestRuntime } from './handler';
import { formToInput } from './create-task-form';

const archiveField = 'archive';

/**
 * `POST /api/v1/tasks`: JSON with a `gitUrl`, or multipart/form-data with the archive in the
 * `archive` file field and the other fields as form fields → `201 {"id"}`.
 */
export const handleCreateTask = restHandler<undefined>(async (request, { runtime }) => {
  const actor = await authenticate(request, runtime);
  const mediaType = mediaTypeOf(request);
  if (mediaType === 'multipart/form-data') return createFromMultipart(request, runtime, actor);
  if (isJsonMediaType(mediaType)) return createFromJson(request, runtime, actor);
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `send application/json (with a gitUrl) or multipart/form-data (with an archive file), got ${mediaType === '' ? 'no Content-Type' : mediaType}`,
  );
});

async function createFromJson(
  request: Request,
  runtime: RestRuntime,
  actor: Actor,
): Promise<Response> {
  const body = await readJsonBody(request, bodyLimits.small);
  if (typeof body === 'object' && body !== null && Object.hasOwn(body, archiveField)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      'an archive must be uploaded as multipart/form-data (the file in the field "archive")',
    );
  }
  const fields = parseWith(createTaskFieldsSchema, body, 'request body');
  if (fields.gitUrl === undefined) {
    throw new AppError(
      'INVALID_ARGUMENT',
      'gitUrl is required; to upload an archive instead, send multipart/form-data with the file in the field "archive"',
    );
  }
  return create(runtime, actor, fields, { kind: 'git', url: fields.gitUrl, ref: fields.ref });
}

async function createFromMultipart(
  request: Request,
  runtime: RestRuntime,
  actor: Actor,
): Promise<Response> {
  const upload = await receiveMultipartUpload(request, {
    uploadDir: runtime.uploadDir,
    fileField: archiveField,
    maxFileBytes: runtime.maxUploadBytes,
  });
  try {
    const fields = parseWith(
      createTaskFieldsSchema,
      formToInput(upload.fields, { fileField: archiveField }),
      'form',
    );
    return await create(runtime, actor, fields, sourceOf(fields, upload.file));
  } catch (error) {
    // Refused before the task service took the file: it must not stay behind.
    if (upload.file !== null) await rm(upload.file.path, { force: true });
    throw error;
  }
}

function sourceOf(fields: CreateTaskFields, file: UploadedFile | null): TaskSourceInput {
  if (file !== null && fields.gitUrl !== undefined) {
    throw new AppError('INVALID_ARGUMENT', 'give either gitUrl or an archive file, not both');
  }
  if (file === null) {
    if (fields.gitUrl === undefined) {
      throw new AppError(
        'INVALID_ARGUMENT',
        'give either gitUrl or an archive file (in the field "archive"); the form has neither',
      );
    }
    return { kind: 'git', url: fields.gitUrl, ref: fields.ref };
  }
  if (fields.ref !== undefined) {
    throw new AppError('INVALID_ARGUMENT', 'ref applies to gitUrl only, not to an archive');
  }
  if (file.bytes === 0) throw new AppError('INVALID_ARGUMENT', 'the uploaded archive is empty');
  return { kind: 'archive', file: file.path, name: file.fileName };
}

async function create(
  runtime: RestRuntime,
  actor: Actor,
  fields: CreateTaskFields,
  source: TaskSourceInput,
): Promise<Response> {
  const input: CreateTaskInput = {
    source,
    testCommand: fields.testCommand,
    title: fields.title,
    problem: fields.problem,
    issueUrl: fields.issueUrl,
    maxIterations: fields.maxIterations,
    hypothesesPerIteration: fields.hypothesesPerIteration,
    hypothesisWaitSecs: fields.hypothesisWaitSecs,
    fixer: fields.fixer,
    allowTestEdits: fields.allowTestEdits,
    maxTokens: fields.maxTokens,
    plan: fields.plan,
    limits: pickRunLimits(fields),
    setupCommands: fields.setupCommands,
    buildCommand: fields.buildCommand,
    knownFailures: fields.knownFailures,
    team: fields.team,
  };
  const { id } = await runtime.tasks.createTask(input, actor);
  return jsonResponse({ id }, 201, { Location: `/api/v1/tasks/${encodeURIComponent(id)}` });
}
