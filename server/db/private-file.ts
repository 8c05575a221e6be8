import { chmodSync, closeSync, openSync } from 'node:fs';

/**
 * Makes the SQLite database file readable by the server alone (0600), before SQLite opens it:
 * it holds every person's password hash, session and token hash. SQLite creates its `-wal`,
 * `-shm` and `-journal` files with the database file's own mode, so creating the file first at
 * 0600 covers them; a file (or sidecar) an older version left at 0644 is narrowed here, at every
 * start-up.
 */
export function makeDatabaseFilePrivate(file: string): void {
  // `a`: creates the file if missing (an empty file is a new SQLite database), never truncates.
  closeSync(openSync(file, 'a', 0o600));
  for (const name of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(name, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
