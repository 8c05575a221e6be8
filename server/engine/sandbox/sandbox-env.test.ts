import { describe, expect, it } from 'vitest';
import { sandboxEnv, validateExtraEnv } from './sandbox-env';

describe('sandboxEnv', () => {
  it('is an allowlist: the server environment never reaches a run', () => {
    const env = sandboxEnv({
      home: '/s/home',
      tmpdir: '/s/home',
      host: { PATH: '/usr/bin', SHADOWBOX_LLM_API_KEY: 'secret', PYENV_ROOT: '/root/.pyenv' },
      extra: { CI: '1' },
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/s/home',
      TMPDIR: '/s/home',
      LANG: 'C.UTF-8',
      PYENV_ROOT: '/root/.pyenv',
      CI: '1',
    });
  });

  it.each(['PATH', 'PYENV_ROOT', 'CARGO_HOME', 'RUSTUP_HOME', 'GOROOT', 'JAVA_HOME', 'HOME'])(
    'refuses a task variable %s that would widen what the sandbox root shows',
    (name) => {
      expect(() => validateExtraEnv({ [name]: '/etc' })).toThrow(
        `environment variable ${name} is set by the sandbox`,
      );
    },
  );
});
