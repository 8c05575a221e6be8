import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';

/** One file of an import: a regular file read from disk, or a link whose blob is its target. */
export type ImportEntry =
  | { readonly path: string; readonly mode: '100644' | '100755'; readonly file: string }
  | { readonly path: string; readonly mode: '120000'; readonly target: Buffer };

/** The fixed identity and date that make an import's commit id a function of its content alone. */
export const importSignature = 'Shadowbox Import <import@shadowbox.invalid> 946684800 +0000';
export const importMessage = 'Import archive\n';

/**
 * A path as `git fast-import` reads it: always C-quoted, so a name that starts with a quote or
 * holds a line feed or any other control character stays one path (fast-import would otherwise end
 * the path at the line feed); other bytes, UTF-8 included, pass as they are.
 */
export function quoteImportPath(path: string): string {
  const escaped = path
    .replace(/[\\"]/g, (c) => `\\${c}`)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
  return `"${escaped}"`;
}

/**
 * The fast-import stream of one root commit on `ref` holding `entries`, file contents inline and
 * read one at a time (an archive may hold a gigabyte; only one file is in memory at once). It ends
 * with `done`, which `--done` requires, so a stream cut short is an error rather than a commit of
 * the files that made it.
 */
export function importStream(ref: string, entries: readonly ImportEntry[]): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    yield Buffer.from(
      `feature done\ncommit ${ref}\nauthor ${importSignature}\ncommitter ${importSignature}\n` +
        `data ${Buffer.byteLength(importMessage)}\n${importMessage}`,
    );
    for (const entry of entries) {
      const data = 'file' in entry ? await readFile(entry.file) : entry.target;
      yield Buffer.from(
        `M ${entry.mode} inline ${quoteImportPath(entry.path)}\ndata ${data.length}\n`,
      );
      yield data;
      yield Buffer.from('\n');
    }
    yield Buffer.from('done\n');
  }
  return Readable.from(chunks(), { objectMode: false });
}
