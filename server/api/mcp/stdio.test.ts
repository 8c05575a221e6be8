import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliActor } from '../../auth/actor';
import { serveMcpStdio } from './stdio';
import { createFakeServices, type FakeServices } from './test-support/fake-services';

let services: FakeServices;

beforeEach(async () => {
  services = await createFakeServices();
});

afterEach(async () => {
  await services.dispose();
});

/** stdin/stdout pipes and a reader of the JSON-RPC lines the server writes. */
function pipes() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: unknown[] = [];
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
    }
  });
  const send = (message: object): void => {
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  };
  return { stdin, stdout, lines, send };
}

const initialize = {
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'test', version: '1' },
  },
};

describe('serveMcpStdio', () => {
  it('speaks JSON-RPC on stdout only, as the local user, until stdin ends', async () => {
    const io = pipes();
    const serving = serveMcpStdio({ services, stdin: io.stdin, stdout: io.stdout });
    io.send(initialize);
    io.send({ method: 'notifications/initialized' });
    const task = services.tasks.addTask();
    io.send({
      id: 2,
      method: 'tools/call',
      params: {
        name: 'submit_hypotheses',
        arguments: { taskId: task.id, hypotheses: [{ name: 'h' }] },
      },
    });
    await expect.poll(() => io.lines.length).toBe(2);
    expect(io.lines[0]).toMatchObject({ id: 1, result: { serverInfo: { name: 'shadowbox' } } });
    expect(io.lines[1]).toMatchObject({
      id: 2,
      result: { structuredContent: { accepted: ['h'] } },
    });
    expect(services.tasks.submitted[0]?.actor).toEqual(cliActor);
    io.stdin.end();
    await serving;
  });

  it('ends when its signal aborts', async () => {
    const io = pipes();
    const stop = new AbortController();
    const serving = serveMcpStdio({
      services,
      stdin: io.stdin,
      stdout: io.stdout,
      signal: stop.signal,
    });
    io.send(initialize);
    await expect.poll(() => io.lines.length).toBe(1);
    stop.abort();
    await serving;
  });
});
