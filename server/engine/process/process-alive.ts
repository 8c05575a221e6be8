/**
 * Whether a process of this id exists on this machine. Signal 0 checks without sending anything;
 * EPERM means it exists but belongs to another user, so it counts as alive.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
