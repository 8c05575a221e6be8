import { describe, expect, it } from 'vitest';
import { offlineEnv, sandboxEnv, validateExtraEnv } from './sandbox-env';

describe('sandboxEnv', () => {
  it('is an allowlist: the server environment never reaches a run', () => {
    const env = sandboxEnv({
      home: '/s/home',
      tmpdir: '/s/home',
      host: { PATH: '/usr/bin', SHADOWBOX_LLM_API_KEY: 'secret', PYENV_ROOT: '/root/.pyenv' },
      extra: { CI: '1' },
      offline: false,
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

  it("passes the host's PYTEST_DISABLE_PLUGIN_AUTOLOAD through, and only when it is set", () => {
    const host = { PATH: '/usr/bin', PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', PYTEST_ADDOPTS: '-x' };
    const env = sandboxEnv({ home: '/h', tmpdir: '/h', host });
    expect(env.PYTEST_DISABLE_PLUGIN_AUTOLOAD).toBe('1');
    expect(env).not.toHaveProperty('PYTEST_ADDOPTS');
    expect(sandboxEnv({ home: '/h', tmpdir: '/h', host: { PATH: '/usr/bin' } })).not.toHaveProperty(
      'PYTEST_DISABLE_PLUGIN_AUTOLOAD',
    );
  });

  it.each(['PATH', 'PYENV_ROOT', 'CARGO_HOME', 'RUSTUP_HOME', 'GOROOT', 'JAVA_HOME', 'HOME'])(
    'refuses a task variable %s that would widen what the sandbox root shows',
    (name) => {
      expect(() => validateExtraEnv({ [name]: '/etc' })).toThrow(
        `environment variable ${name} is set by the sandbox`,
      );
    },
  );

  it('makes package managers fail fast offline by default (no wait on DNS in a run without a network)', () => {
    const env = sandboxEnv({ home: '/s/home', tmpdir: '/s/home', host: { PATH: '/usr/bin' } });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/s/home',
      TMPDIR: '/s/home',
      LANG: 'C.UTF-8',
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      PIP_NO_INDEX: '1',
      PIP_DISABLE_PIP_VERSION_CHECK: '1',
      CARGO_NET_OFFLINE: 'true',
      GOPROXY: 'off',
      GOSUMDB: 'off',
      UV_OFFLINE: '1',
      YARN_ENABLE_OFFLINE_MODE: '1',
    });
  });

  it('sets none of the offline variables for a setup run (offline: false), and keeps GOFLAGS as passed', () => {
    const env = sandboxEnv({
      home: '/s/home',
      tmpdir: '/s/home',
      host: { PATH: '/usr/bin', GOFLAGS: '-modcacherw' },
      offline: false,
    });
    for (const name of Object.keys(offlineEnv)) expect(env).not.toHaveProperty(name);
    expect(env.GOFLAGS).toBe('-modcacherw');
    expect(sandboxEnv({ home: '/h', tmpdir: '/h', host: { GOFLAGS: '-mod=vendor' } }).GOFLAGS).toBe(
      '-mod=vendor',
    );
  });

  it('lets a task change an offline variable: not reserved, since a run has no network to reach', () => {
    expect(() => validateExtraEnv({ GOPROXY: 'https://proxy.golang.org' })).not.toThrow();
    const env = sandboxEnv({
      home: '/s/home',
      tmpdir: '/s/home',
      host: {},
      extra: { npm_config_offline: 'false' },
    });
    expect(env.npm_config_offline).toBe('false');
    expect(env.PIP_NO_INDEX).toBe('1');
  });
});
