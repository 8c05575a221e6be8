import { describe, expect, it } from 'vitest';
import {
  defaultRunLimits,
  describeLimitExceeded,
  pickRunLimits,
  runLimitsProblem,
} from './run-limits';

describe('run limits', () => {
  it('names the cap a run went past, with its value', () => {
    expect(describeLimitExceeded('memory', defaultRunLimits)).toBe(
      'exceeded its memory cap of 4096 MB',
    );
    expect(describeLimitExceeded('pids', defaultRunLimits)).toBe(
      'exceeded its process cap of 1024 processes',
    );
    expect(describeLimitExceeded('disk', { ...defaultRunLimits, maxDiskMb: 16 })).toBe(
      'exceeded its disk cap of 16 MB',
    );
  });

  it('refuses a cap out of range or not whole, naming the field and the value', () => {
    expect(runLimitsProblem({ maxMemoryMb: 512, maxPids: 64 })).toBeNull();
    expect(runLimitsProblem({ maxMemoryMb: 8 })).toBe(
      'maxMemoryMb must be a whole number of MB from 16 to 1048576, got 8',
    );
    expect(runLimitsProblem({ maxDiskMb: 1.5 })).toBe(
      'maxDiskMb must be a whole number of MB from 1 to 16777216, got 1.5',
    );
  });

  it('picks the caps an object sets and leaves out null and absent ones', () => {
    expect(pickRunLimits({ maxMemoryMb: 64, maxPids: null })).toEqual({ maxMemoryMb: 64 });
    expect(pickRunLimits({})).toEqual({});
  });
});
