import { HttpError, httpErrorOf } from '../errors/error-info';
import { uiHeaders } from '../trpc/ui-header';

export interface ArchiveUpload {
  readonly file: File;
  readonly testCommand: readonly string[];
  readonly maxIterations: number;
  readonly hypothesesPerIteration: number;
  /** Seconds an iteration waits for hypotheses. */
  readonly hypothesisWaitSecs: number;
  /** Caps of each test run; absent ones take the server's defaults. */
  readonly maxMemoryMb?: number;
  readonly maxPids?: number;
  readonly maxDiskMb?: number;
  readonly maxInodes?: number;
  /** Left out: detected from the tree; `[]`: no setup. */
  readonly setupCommands?: readonly (readonly string[])[];
  readonly buildCommand?: readonly string[];
  readonly knownFailures?: readonly string[];
  /** Left out: the server makes one from the archive's name. */
  readonly title?: string;
  /** Markdown; left out: none. */
  readonly problem?: string;
  readonly issueUrl?: string;
  /** 0..1 as the bytes leave the browser. */
  readonly onProgress: (fraction: number) => void;
}

/**
 * Creates a task from an archive through `POST /api/uploads/tasks`. XMLHttpRequest rather than
 * fetch: only it reports upload progress.
 */
export function uploadArchive(upload: ArchiveUpload): Promise<{ id: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/uploads/tasks');
    for (const [name, value] of Object.entries(uiHeaders)) request.setRequestHeader(name, value);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) upload.onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      if (request.status !== 201) {
        reject(httpErrorOf(request.status, request.responseText));
        return;
      }
      upload.onProgress(1);
      resolve(JSON.parse(request.responseText) as { id: string });
    });
    const failed = (what: string) => () => {
      reject(
        new HttpError({
          message: `the upload ${what}: the server could not be reached`,
          appCode: null,
          httpStatus: null,
          field: 'archive',
        }),
      );
    };
    request.addEventListener('error', failed('failed'));
    request.addEventListener('timeout', failed('timed out'));

    // The fields first, so the server has them when the file starts.
    const form = new FormData();
    form.set('testCommand', JSON.stringify(upload.testCommand));
    form.set('maxIterations', String(upload.maxIterations));
    form.set('hypothesesPerIteration', String(upload.hypothesesPerIteration));
    form.set('hypothesisWaitSecs', String(upload.hypothesisWaitSecs));
    for (const name of ['maxMemoryMb', 'maxPids', 'maxDiskMb', 'maxInodes'] as const) {
      const value = upload[name];
      if (value !== undefined) form.set(name, String(value));
    }
    for (const name of ['setupCommands', 'buildCommand', 'knownFailures'] as const) {
      const value = upload[name];
      if (value !== undefined) form.set(name, JSON.stringify(value));
    }
    for (const name of ['title', 'problem', 'issueUrl'] as const) {
      const value = upload[name];
      if (value !== undefined) form.set(name, value);
    }
    form.set('archive', upload.file, upload.file.name);
    request.send(form);
  });
}
