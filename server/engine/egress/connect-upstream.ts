import net from 'node:net';
import type { Duplex } from 'node:stream';
import { display, Refusal } from './egress-refusal';

export interface ConnectUpstreamOptions {
  /** For every address tried, together. */
  readonly connectTimeoutMs: number;
  /** Whether the proxy is closing: no new attempt is made then. */
  readonly isClosed: () => boolean;
  /** Registers each socket opened, so that closing the proxy destroys it. */
  readonly track: (socket: Duplex) => void;
}

/** Connects to the first address that answers, within the connect timeout for them all. */
export function connectUpstream(
  addresses: readonly string[],
  port: number,
  options: ConnectUpstreamOptions,
): Promise<net.Socket | Refusal> {
  const { connectTimeoutMs, isClosed, track } = options;
  const deadline = Date.now() + connectTimeoutMs;
  return new Promise((settle) => {
    let failure = '';
    const attempt = (index: number): void => {
      const address = addresses[index];
      const left = deadline - Date.now();
      if (isClosed()) {
        settle(new Refusal(502, 'the proxy is closing'));
        return;
      }
      if (left <= 0) {
        settle(new Refusal(504, `connect timed out after ${connectTimeoutMs} ms`));
        return;
      }
      if (address === undefined) {
        settle(new Refusal(502, failure));
        return;
      }
      const socket = net.connect({ host: address, port });
      track(socket);
      let handled = false;
      const timer = setTimeout(() => socket.destroy(), left);
      const failed = (why: string): void => {
        if (handled) return;
        handled = true;
        clearTimeout(timer);
        socket.destroy();
        failure = `connect to ${display(address, port)} failed: ${why}`;
        attempt(index + 1);
      };
      socket.once('connect', () => {
        handled = true;
        clearTimeout(timer);
        settle(socket);
      });
      socket.on('error', (error: NodeJS.ErrnoException) => failed(error.code ?? error.message));
      socket.once('close', () => failed('closed'));
    };
    attempt(0);
  });
}
