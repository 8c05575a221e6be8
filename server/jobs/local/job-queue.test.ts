import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error';
import { describeError, isLocalWorkerAlive, newWorkerId, parseWorkerId } from './job-queue';

describe('worker ids', () => {
  it('name the host and the process, and differ per runner', () => {
    const id = newWorkerId();
    expect(parseWorkerId(id)).toEqual({
      hostname: os.hostname(),
      pid: process.pid,
      nonce: expect.stringMatching(/^[0-9a-f]{8}$/) as unknown,
    });
    expect(newWorkerId()).not.toBe(id);
    expect(parseWorkerId('a:b:c')).toBeNull();
    expect(parseWorkerId('nohost')).toBeNull();
    expect(parseWorkerId('h:0:x')).toBeNull();
  });

  it('tell a dead local worker from a live one; other hosts count as alive', () => {
    const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
    expect(child.status).toBe(0);
    const host = os.hostname();
    expect(isLocalWorkerAlive(`${host}:${child.pid}:x`)).toBe(false);
    expect(isLocalWorkerAlive(newWorkerId())).toBe(true);
    expect(isLocalWorkerAlive(`${host}:${process.ppid}:x`)).toBe(true);
    expect(isLocalWorkerAlive(`not-${host}:${child.pid}:x`)).toBe(true);
    expect(isLocalWorkerAlive('garbage')).toBe(true);
  });
});

describe('describeError', () => {
  it('keeps the name, the message and the first stack frames, bounded', () => {
    const text = describeError(new AppError('INTERNAL', 'went wrong'));
    expect(text).toMatch(/^AppError: went wrong\n {4}at /);
    expect(describeError('plain')).toBe('plain');
    expect(describeError({ code: 7 })).toBe('{"code":7}');
    expect(describeError(undefined)).toBe('undefined');
    const long = describeError('x'.repeat(10_000));
    expect(long).toHaveLength(4000);
    expect(long.endsWith('…')).toBe(true);
  });
});
