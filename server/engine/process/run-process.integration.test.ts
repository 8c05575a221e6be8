import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runProcess } from './run-process';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const cwd = os.tmpdir();

// A killed process whose new parent has not reaped it yet is a zombie: it no longer runs.
async function running(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

async function pidFrom(file: string): Promise<number> {
  for (let i = 0; i < 100; i += 1) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim() !== '') return Number(text.trim());
    await sleep(20);
  }
  throw new Error(`no pid written to ${file}`);
}

describe('runProcess', () => {
  it('reports the exit code and merges stdout and stderr line by line', async () => {
    const lines: string[] = [];
    const result = await runProcess('sh', ['-c', 'echo out; echo err >&2; exit 3'], {
      cwd,
      env,
      onLine: (line) => lines.push(line),
    });
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(result.spawnError).toBeNull();
    expect(lines.sort()).toEqual(['err', 'out']);
    expect(result.output.text.split('\n').sort()).toEqual(['err', 'out']);
  });

  it('passes only the given environment', async () => {
    const result = await runProcess('env', [], { cwd, env: { ...env, ONLY_THIS: '1' } });
    expect(result.output.text.split('\n').sort()).toEqual([`ONLY_THIS=1`, `PATH=${env.PATH}`]);
  });

  it('kills the whole process tree on timeout, within 2 s', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-proc-'));
    const pidFile = path.join(dir, 'grandchild');
    const run = runProcess('sh', ['-c', `sh -c 'echo $$ > ${pidFile}; exec sleep 60' & wait`], {
      cwd,
      env,
      timeoutMs: 300,
    });
    const grandchild = await pidFrom(pidFile);
    expect(await running(grandchild)).toBe(true);
    const result = await run;
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.durationMs).toBeLessThan(2300);
    await sleep(50);
    expect(await running(grandchild)).toBe(false);
  });

  it('escalates to SIGKILL when a process ignores SIGTERM', async () => {
    const result = await runProcess('sh', ['-c', "trap '' TERM; sleep 30"], {
      cwd,
      env,
      timeoutMs: 200,
      killGraceMs: 500,
    });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('cancels through an AbortSignal', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await runProcess('sleep', ['30'], { cwd, env, signal: controller.signal });
    expect(result.cancelled).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('does not wait for a background process that holds the output open', async () => {
    const result = await runProcess('sh', ['-c', 'sleep 30 & echo started'], {
      cwd,
      env,
      timeoutMs: 10_000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('reports a program that does not exist as a spawn error', async () => {
    const result = await runProcess('definitely-not-a-program-xyz', [], { cwd, env });
    expect(result.exitCode).toBeNull();
    expect(result.spawnError).toMatch(/ENOENT|not found/);
  });

  it('refuses invalid options with a message naming them', async () => {
    await expect(runProcess('true', [], { cwd, env, timeoutMs: -1 })).rejects.toThrow(
      'timeoutMs must be a positive number, got -1',
    );
  });
});
