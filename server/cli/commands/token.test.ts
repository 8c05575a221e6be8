import { describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIo, type MemoryIo } from '../test-support/memory-io';
import { tokenCommand } from './token';

// Argument handling only: every case here is refused (or answered) before a database is opened.
// DATABASE_URL points at a port nothing listens on, so a case that reached the database would
// exit 1 instead of the code expected here.
function io(env: MemoryIo['env'] = { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/never' }) {
  const cli: MemoryIo = { ...memoryIo(), env };
  return cli;
}

async function run(args: readonly string[]) {
  const cli = io();
  const code = await tokenCommand(args, cli);
  return { code, out: cli.out(), err: cli.err() };
}

describe('shadowbox token arguments', () => {
  it('is listed by shadowbox --help', async () => {
    const cli = memoryIo();
    expect(await main(['--help'], cli)).toBe(0);
    expect(cli.out()).toMatch(/\n\s+token\s+create, list or revoke/);
  });

  it.each([['--help'], ['-h'], ['help'], ['create', '--help'], ['revoke', '-h']])(
    'prints the help for %j and exits 0',
    async (...args) => {
      const result = await run(args);
      expect(result.code).toBe(0);
      expect(result.out).toContain(
        'Usage: shadowbox token create --user NAME --scopes SCOPE[,SCOPE]',
      );
      expect(result.out).toContain('TOKEN=$(shadowbox token create --user bob --scopes agent)');
      expect(result.err).toBe('');
    },
  );

  it.each([
    [[], 'missing subcommand: create, list or revoke; see --help'],
    [['frobnicate'], "unknown subcommand 'frobnicate': use create, list or revoke; see --help"],
    [['create'], '--user is required: the person the token acts as, e.g. --user bob'],
    [
      ['create', '--scopes', 'agent'],
      '--user is required: the person the token acts as, e.g. --user bob',
    ],
    [
      ['create', '--user', 'bob'],
      '--scopes is required, e.g. --scopes agent or --scopes agent,reviewer',
    ],
    [['create', '--user', 'bob', '--scopes'], "Option '--scopes <value>' argument missing"],
    [
      ['create', '--user', 'bob', '--scopes', 'admin'],
      'unknown scope "admin"; valid scopes: agent, reviewer',
    ],
    [
      ['create', '--user', 'bob', '--scopes', 'agent,'],
      'unknown scope ""; valid scopes: agent, reviewer',
    ],
    [
      ['create', '--user', 'bob', '--scopes', 'agent', '--name', ' '],
      'the token name must not be empty',
    ],
    [['create', '--user', 'bob', '--scopes', 'agent', 'extra'], "unexpected argument 'extra'"],
    [
      ['create', '--user', 'bob', '--scopes', 'agent', '--frobnicate'],
      "Unknown option '--frobnicate'",
    ],
    [['list', '--scopes', 'agent'], "--scopes is only for 'token create'"],
    [['list', 'x'], "unexpected argument 'x'"],
    [['revoke'], 'token revoke needs an ID'],
    [['revoke', 'a', 'b'], 'token revoke takes exactly one ID'],
    [['revoke', 'a', '--name', 'n'], "--name is only for 'token create'"],
    [['revoke', 'a', '--user', 'bob'], "--user is for 'token create' and 'token list'"],
  ])('refuses %j with exit 2 and a clear message', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err).toContain(message);
    expect(result.err).toMatch(/^shadowbox token: .* \[INVALID_ARGUMENT\]\n$/);
  });

  it('with --json, prints the refusal as one JSON object on stdout', async () => {
    const result = await run(['create', '--user', 'bob', '--scopes', 'agent,root', '--json']);
    expect(result.code).toBe(2);
    expect(result.err).toBe('');
    expect(JSON.parse(result.out)).toEqual({
      error: {
        code: 'INVALID_ARGUMENT',
        message: 'unknown scope "root"; valid scopes: agent, reviewer',
      },
    });
  });

  it('refuses an invalid environment with exit 2', async () => {
    const cli = io({ DATABASE_URL: 'mysql://x/y' });
    expect(await main(['token', 'list'], cli)).toBe(2);
    expect(cli.err()).toContain('DATABASE_URL="mysql://x/y" is not supported');
  });
});
