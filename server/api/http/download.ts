import { AppError } from '../../errors/app-error';
import type { PatchDownload } from '../../tasks/task-api';

/** What each download of a task's change is sent as. */
export const downloadTypes = {
  patch: 'text/x-patch; charset=utf-8',
  series: 'application/mbox',
  bundle: 'application/x-git-bundle',
} as const;

export type DownloadKind = keyof typeof downloadTypes;

/**
 * A task's change as a file (the patch mail, a series, a bundle), for REST and the page's links
 * alike: an attachment whose name is made safe for the header, the approved diff's hash in
 * `X-Content-SHA256`, never cached or sniffed.
 */
export function downloadResponse(file: PatchDownload, kind: DownloadKind): Response {
  return new Response(new Uint8Array(file.bytes), {
    status: 200,
    headers: {
      'Content-Type': downloadTypes[kind],
      'Content-Disposition': `attachment; filename="${safeFileName(file.fileName, kind)}"`,
      'Content-Length': String(file.bytes.byteLength),
      'X-Content-SHA256': file.sha256,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** The names are made by the server; this still keeps a quote or a newline out of the header. */
export function safeFileName(name: string, kind: DownloadKind): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === '' || /^\.+$/.test(safe) ? `shadowbox.${kind}` : safe;
}

/**
 * With `?sha256=`, the download must still be of the diff the page showed: a page open on an
 * older diff gets STALE_DIFF rather than a file it did not review.
 */
export function requireShownSha256(request: Request, current: string): void {
  const expected = new URL(request.url).searchParams.get('sha256');
  if (expected !== null && expected !== current) {
    throw new AppError(
      'STALE_DIFF',
      `the diff changed since the page showed ${expected.slice(0, 12)}…; reload the page to review the current one`,
      { details: { current } },
    );
  }
}
