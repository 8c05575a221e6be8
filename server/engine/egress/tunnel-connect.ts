import type net from 'node:net';
import type { Duplex } from 'node:stream';
import type { EgressContext } from './egress-context';
import { parseAuthority } from './egress-destination';
import { answer, display, Refusal } from './egress-refusal';

/** Tunnels a `CONNECT host:port` to the checked address of an allowlisted destination. */
export async function tunnelConnect(
  context: EgressContext,
  target: string,
  client: Duplex,
  head: Buffer,
): Promise<void> {
  const parsed = parseAuthority(target);
  if (parsed === null) {
    answer(client, 400, `refused: CONNECT needs host:port, got '${target.slice(0, 100)}'`);
    return;
  }
  const { host, port } = parsed;
  const release = context.acquire();
  if (release === null) {
    const { atCap } = context;
    context.record(host, port, atCap);
    answer(client, atCap.status, `refused: ${display(host, port)}: ${atCap.reason}`);
    return;
  }
  client.once('close', release);
  const admitted = await context.admit(parsed, false);
  const upstream =
    admitted instanceof Refusal ? admitted : await context.connect(admitted.addresses, port);
  if (upstream instanceof Refusal) {
    context.record(host, port, upstream);
    answer(client, upstream.status, `refused: ${display(host, port)}: ${upstream.reason}`);
    return;
  }
  if (client.destroyed) {
    upstream.destroy();
    return;
  }
  context.record(host, port, null);
  const closeBoth = (): void => {
    client.destroy();
    upstream.destroy();
  };
  client.once('close', closeBoth);
  upstream.once('close', closeBoth);
  for (const socket of [client, upstream]) {
    (socket as net.Socket).setTimeout(context.idleTimeoutMs, closeBoth);
  }
  client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  if (head.length > 0) upstream.write(head);
  client.pipe(upstream);
  upstream.pipe(client);
}
