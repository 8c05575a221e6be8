import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { isProcessAlive } from '../../engine/process';

/** `${hostname}:${pid}:${random}`: unique per runner, and tells `isLocalWorkerAlive` its process. */
export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function parseWorkerId(
  workerId: string,
): { hostname: string; pid: number; nonce: string } | null {
  const match = /^(.+):(\d+):([^:]+)$/.exec(workerId);
  if (match === null) return null;
  const [, hostname = '', pid = '', nonce = ''] = match;
  const parsed = Number(pid);
  return Number.isSafeInteger(parsed) && parsed > 0 ? { hostname, pid: parsed, nonce } : null;
}

/**
 * False only when the worker ran on this host and its process is gone. Workers of other hosts
 * (and ids this cannot parse) count as alive: their leases expire instead. A reused pid makes a
 * dead worker look alive, which is safe (the lease still expires).
 */
export function isLocalWorkerAlive(workerId: string): boolean {
  const parsed = parseWorkerId(workerId);
  if (parsed === null || parsed.hostname !== os.hostname()) return true;
  if (parsed.pid === process.pid) return true;
  return isProcessAlive(parsed.pid);
}
