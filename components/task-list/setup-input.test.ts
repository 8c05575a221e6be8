import { describe, expect, it } from 'vitest';
import { emptySetup, setupInputOf } from './setup-input';

describe('setupInputOf', () => {
  it('leaves everything to the server when nothing is typed (setup detected, no build)', () => {
    expect(setupInputOf(emptySetup)).toEqual({ ok: true, input: {} });
    expect(setupInputOf({ ...emptySetup, setupCommands: '\n  \n' })).toEqual({
      ok: true,
      input: {},
    });
  });

  it('splits one setup command per line, the build line, and one known failure per line', () => {
    const parsed = setupInputOf({
      setupCommands: 'npm ci\n\n  npm run build:deps -- --quiet  \r\n',
      noSetup: false,
      buildCommand: "npx tsc -p 'tsconfig build.json'",
      knownFailures: ' net > downloads \n\ndns::lookup\n',
    });
    expect(parsed).toEqual({
      ok: true,
      input: {
        setupCommands: [
          ['npm', 'ci'],
          ['npm', 'run', 'build:deps', '--', '--quiet'],
        ],
        buildCommand: ['npx', 'tsc', '-p', 'tsconfig build.json'],
        knownFailures: ['net > downloads', 'dns::lookup'],
      },
    });
  });

  it('sends no setup at all when asked, whatever the commands say', () => {
    expect(setupInputOf({ ...emptySetup, noSetup: true, setupCommands: 'npm ci' })).toEqual({
      ok: true,
      input: { setupCommands: [] },
    });
  });

  it('names the field and the line of a command a shell would be needed for', () => {
    const setup = setupInputOf({ ...emptySetup, setupCommands: 'npm ci\nnpm ci && npm test' });
    expect(setup).toMatchObject({ ok: false, field: 'setupCommands' });
    expect(setup.ok ? '' : setup.message).toMatch(/^Setup command 2: '&&' is a shell operator/);
    const build = setupInputOf({ ...emptySetup, buildCommand: 'make > log' });
    expect(build).toMatchObject({ ok: false, field: 'buildCommand' });
  });
});
