import { describe, expect, it } from 'vitest';
import {
  clampRunLimits,
  defaultRunLimits,
  describeLimitExceeded,
  pickRunLimits,
  runLimitsAboveCeiling,
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
    expect(describeLimitExceeded('inodes', defaultRunLimits)).toBe(
      'exceeded its inode cap of 200000 files',
    );
  });

  it('refuses a cap out of range or not whole, naming the field and the value', () => {
    expect(runLimitsProblem({ maxMemoryMb: 512, maxPids: 64, maxInodes: 5000 })).toBeNull();
    expect(runLimitsProblem({ maxMemoryMb: 8 })).toBe(
      'maxMemoryMb must be a whole number of MB from 16 to 1048576, got 8',
    );
    expect(runLimitsProblem({ maxDiskMb: 1.5 })).toBe(
      'maxDiskMb must be a whole number of MB from 1 to 16777216, got 1.5',
    );
    expect(runLimitsProblem({ maxInodes: 10 })).toBe(
      'maxInodes must be a whole number of files from 100 to 1000000000, got 10',
    );
  });

  it('picks the caps an object sets and leaves out null and absent ones', () => {
    expect(pickRunLimits({ maxMemoryMb: 64, maxPids: null, maxInodes: 900 })).toEqual({
      maxMemoryMb: 64,
      maxInodes: 900,
    });
    expect(pickRunLimits({})).toEqual({});
  });
});

describe("the server's caps are ceilings", () => {
  const ceiling = defaultRunLimits;
  const hardMax = { maxMemoryMb: 16_384, maxPids: 4096, maxDiskMb: 16_384, maxInodes: 1_000_000 };

  it('lets a task lower any cap, or ask exactly the ceiling', () => {
    expect(
      runLimitsAboveCeiling(
        { maxMemoryMb: 64, maxPids: 1024, maxDiskMb: 1, maxInodes: 100 },
        { ceiling, hardMax, admin: false },
      ),
    ).toBeNull();
  });

  it("refuses an author's cap above the ceiling, naming the ceiling", () => {
    expect(
      runLimitsAboveCeiling({ maxMemoryMb: 999_999 }, { ceiling, hardMax: ceiling, admin: false }),
    ).toBe("maxMemoryMb 999999 is above this server's ceiling of 4096 MB");
    expect(runLimitsAboveCeiling({ maxPids: 999_999 }, { ceiling, hardMax, admin: false })).toBe(
      "maxPids 999999 is above this server's ceiling of 1024 processes (an admin may raise it)",
    );
    expect(
      runLimitsAboveCeiling({ maxDiskMb: 999_999 }, { ceiling, hardMax: ceiling, admin: false }),
    ).toBe("maxDiskMb 999999 is above this server's ceiling of 4096 MB");
    expect(
      runLimitsAboveCeiling({ maxInodes: 300_000 }, { ceiling, hardMax: ceiling, admin: false }),
    ).toBe("maxInodes 300000 is above this server's ceiling of 200000 files");
  });

  it('lets an admin raise a cap up to the hard maximum, never past it', () => {
    expect(
      runLimitsAboveCeiling({ maxMemoryMb: 16_384 }, { ceiling, hardMax, admin: true }),
    ).toBeNull();
    expect(runLimitsAboveCeiling({ maxMemoryMb: 999_999 }, { ceiling, hardMax, admin: true })).toBe(
      "maxMemoryMb 999999 is above this server's hard maximum of 16384 MB",
    );
  });

  it('holds a stored task to the hard maximum', () => {
    expect(clampRunLimits({ maxMemoryMb: 999_999, maxPids: 64 }, hardMax)).toEqual({
      maxMemoryMb: 16_384,
      maxPids: 64,
    });
  });
});
