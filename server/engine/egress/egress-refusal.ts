import type { Duplex } from 'node:stream';

/** A refusal or failure: the status to answer and the reason to log and show. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {}
}

const statusText: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Writes a one-line plain-text answer and closes the connection. */
export function answer(socket: Duplex, status: number, line: string): void {
  const body = `${line.replace(/[\r\n]/g, ' ')}\n`;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${statusText[status] ?? 'Error'}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export const display = (host: string, port: number): string =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;
