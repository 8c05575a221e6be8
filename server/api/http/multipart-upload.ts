import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { AppError } from '../../errors/app-error';
import { declaredContentLength, formatBytes, mediaTypeOf } from './http-helpers';

export interface MultipartOptions {
  /** Directory the file is streamed into (created if missing), under a random name. */
  readonly uploadDir: string;
  /** The name of the one file field accepted. */
  readonly fileField: string;
  /** Largest accepted file; one byte more → PAYLOAD_TOO_LARGE and the partial file is deleted. */
  readonly maxFileBytes: number;
  readonly maxFields?: number;
  readonly maxFieldBytes?: number;
}

export interface UploadedFile {
  /** Where the file is on disk; the caller owns it (and deletes it when it does not hand it on). */
  readonly path: string;
  /** The client's file name, reduced to its last path segment: for display only. */
  readonly fileName: string;
  readonly bytes: number;
}

export interface MultipartUpload {
  readonly fields: ReadonlyMap<string, string>;
  readonly file: UploadedFile | null;
}

const defaultMaxFields = 16;
const defaultMaxFieldBytes = 1024 * 1024;

/**
 * Streams a multipart/form-data body through busboy: plain fields are collected (each at most
 * once), the one file part goes straight to disk. Nothing is buffered whole in memory. On any
 * refusal or fault the request body stops being read and no file is left behind.
 */
export async function receiveMultipartUpload(
  request: Request,
  options: MultipartOptions,
): Promise<MultipartUpload> {
  const maxFields = options.maxFields ?? defaultMaxFields;
  const maxFieldBytes = options.maxFieldBytes ?? defaultMaxFieldBytes;
  if (mediaTypeOf(request) !== 'multipart/form-data') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'expected a multipart/form-data body');
  }
  const declared = declaredContentLength(request);
  // Fields plus their part headers can add at most this much to the file.
  const maxBodyBytes = options.maxFileBytes + (maxFields + 2) * (maxFieldBytes + 16 * 1024);
  if (declared !== null && declared > maxBodyBytes) throw fileTooLarge(options);
  if (request.body === null) throw new AppError('INVALID_ARGUMENT', 'the request has no body');

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      limits: {
        // busboy flags a file as truncated when it *reaches* the limit: allow exactly the cap.
        fileSize: options.maxFileBytes + 1,
        files: 1,
        fields: maxFields,
        parts: maxFields + 1,
        fieldSize: maxFieldBytes,
      },
    });
  } catch (error) {
    throw malformed(error);
  }
  await mkdir(options.uploadDir, { recursive: true });
  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  return collect(source, parser, options);
}

interface FileInProgress {
  readonly path: string;
  readonly fileName: string;
  readonly output: WriteStream;
  bytes: number;
  written: Promise<void>;
}

function collect(
  source: Readable,
  parser: busboy.Busboy,
  options: MultipartOptions,
): Promise<MultipartUpload> {
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    let file: FileInProgress | null = null;
    let settled = false;

    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      source.destroy();
      void discard(file).then(
        () => {
          reject(error);
        },
        () => {
          reject(error);
        },
      );
    };

    parser.on('file', (name, stream, info) => {
      if (settled) {
        stream.resume();
        return;
      }
      if (name !== options.fileField) {
        stream.resume();
        fail(
          new AppError(
            'INVALID_ARGUMENT',
            `unknown file field ${JSON.stringify(name)}; upload the file in the field "${options.fileField}"`,
          ),
        );
        return;
      }
      const path = join(options.uploadDir, `${randomUUID()}.upload`);
      const output = createWriteStream(path, { flags: 'wx', mode: 0o600 });
      const entry: FileInProgress = {
        path,
        fileName: displayName(info.filename, options.fileField),
        output,
        bytes: 0,
        written: Promise.resolve(),
      };
      file = entry;
      stream.once('limit', () => {
        fail(fileTooLarge(options));
      });
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          entry.bytes += chunk.length;
          if (entry.bytes > options.maxFileBytes) {
            callback(fileTooLarge(options));
            return;
          }
          callback(null, chunk);
        },
      });
      entry.written = pipeline(stream, counter, output).catch((error: unknown) => {
        fail(asError(error));
      });
    });

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated) {
        fail(new AppError('INVALID_ARGUMENT', 'a form field name is too long'));
      } else if (info.valueTruncated) {
        fail(
          new AppError(
            'PAYLOAD_TOO_LARGE',
            `form field ${JSON.stringify(name)} is longer than ${formatBytes(options.maxFieldBytes ?? defaultMaxFieldBytes)}`,
          ),
        );
      } else if (fields.has(name)) {
        fail(new AppError('INVALID_ARGUMENT', `form field ${JSON.stringify(name)} is given twice`));
      } else {
        fields.set(name, value);
      }
    });

    const tooMany = (what: string) => () => {
      fail(new AppError('INVALID_ARGUMENT', `the form has too many ${what}`));
    };
    parser.on('filesLimit', () => {
      fail(new AppError('INVALID_ARGUMENT', `send one file only (field "${options.fileField}")`));
    });
    parser.on('fieldsLimit', tooMany('fields'));
    parser.on('partsLimit', tooMany('parts'));
    parser.on('error', (error: unknown) => {
      fail(malformed(error));
    });
    source.on('error', (error: unknown) => {
      fail(
        new AppError('INVALID_ARGUMENT', 'the request body ended before it was complete', {
          cause: error,
        }),
      );
    });

    parser.on('close', () => {
      const current = file;
      void (current?.written ?? Promise.resolve()).then(() => {
        if (settled) return;
        settled = true;
        resolve({
          fields,
          file:
            current === null
              ? null
              : { path: current.path, fileName: current.fileName, bytes: current.bytes },
        });
      });
    });

    source.pipe(parser);
  });
}

/** Stops writing, waits until the file is closed (so nothing re-creates it), deletes it. */
async function discard(file: FileInProgress | null): Promise<void> {
  if (file === null) return;
  const { output } = file;
  if (!output.closed) {
    const closed = new Promise<void>((resolve) =>
      output.once('close', () => {
        resolve();
      }),
    );
    output.destroy();
    await closed;
  }
  await rm(file.path, { force: true });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function displayName(fileName: string | undefined, fallback: string): string {
  const name = basename((fileName ?? '').replaceAll('\\', '/'))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .slice(0, 255);
  return name === '' ? fallback : name;
}

function fileTooLarge(options: MultipartOptions): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `the uploaded ${options.fileField} is larger than the limit of ${formatBytes(options.maxFileBytes)}`,
    { details: { limitBytes: options.maxFileBytes } },
  );
}

function malformed(error: unknown): AppError {
  const reason = error instanceof Error ? error.message : String(error);
  return new AppError('INVALID_ARGUMENT', `malformed multipart/form-data body: ${reason}`);
}
