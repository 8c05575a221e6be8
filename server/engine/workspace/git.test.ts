import { describe, expect, it } from 'vitest';
import { gitEnvironment, runGit } from './git';

describe('the hardened git runner', () => {
  it('builds an environment with no system/global config, prompts, proxies or transports', () => {
    const env = gitEnvironment();
    expect(env).toMatchObject({
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ALLOW_PROTOCOL: '',
      HOME: '/nonexistent',
    });
    for (const key of Object.keys(env)) expect(key).not.toMatch(/proxy/i);
  });

  it.each([
    'core.fsmonitor=/tmp/x',
    'core.hooksPath=/tmp/hooks',
    'include.path=/tmp/c',
    'credential.helper=store',
  ])('refuses a config override that would undo the hardening: %s', async (pair) => {
    await expect(
      runGit({ gitDir: '/nonexistent', args: ['status'], config: [pair] }),
    ).rejects.toThrow(/undo the hardening/);
  });
});
