import http from 'node:http';
import type { EgressContext } from './egress-context';
import { hostAndPort } from './egress-destination';
import { display, Refusal } from './egress-refusal';

// Connection-level headers (RFC 9110 §7.6.1), never forwarded, plus those `Connection` names.
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Forwards an absolute-form plain HTTP request to the checked address of an allowlisted host. */
export async function forwardHttp(
  context: EgressContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const refuse = (status: number, line: string): void => {
    req.resume();
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end(`${line}\n`);
  };
  const href = req.url ?? '';
  let url: URL | null;
  try {
    url = new URL(href);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    refuse(400, 'refused: a proxy request names an absolute http:// URL');
    return;
  }
  const target = hostAndPort(
    url.hostname.replace(/^\[(.*)\]$/, '$1'),
    url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port),
  );
  if (target === null) {
    refuse(400, `refused: cannot read the host of '${href.slice(0, 100)}'`);
    return;
  }
  const { host, port } = target;
  const refusal = (r: Refusal): void => {
    context.record(host, port, r);
    refuse(r.status, `refused: ${display(host, port)}: ${r.reason}`);
  };
  if (url.protocol === 'https:') {
    refusal(new Refusal(400, 'https:// goes through CONNECT'));
    return;
  }
  if (url.username !== '' || url.password !== '') {
    refusal(new Refusal(403, 'credentials in the URL are not forwarded'));
    return;
  }
  const release = context.acquire();
  if (release === null) {
    refusal(context.atCap);
    return;
  }
  res.once('close', release);
  const admitted = await context.admit(target, true);
  const socket =
    admitted instanceof Refusal ? admitted : await context.connect(admitted.addresses, port);
  if (socket instanceof Refusal) {
    refusal(socket);
    return;
  }
  if (res.destroyed) {
    socket.destroy();
    return;
  }
  context.record(host, port, null);
  const named = new Set(
    (req.headers.connection ?? '').split(',').map((h) => h.trim().toLowerCase()),
  );
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || hopByHop.has(name) || named.has(name) || name === 'host') continue;
    headers[name] = value;
  }
  headers.host = url.host;
  // The connection made to the checked address carries the request: nothing resolves again.
  const upstream = http.request({
    createConnection: () => socket,
    method: req.method,
    path: `${url.pathname}${url.search}`,
    headers,
  });
  socket.setTimeout(context.idleTimeoutMs, () => socket.destroy());
  upstream.on('error', () => {
    if (res.headersSent) res.destroy();
    else refuse(502, `refused: ${display(host, port)}: the upstream connection failed`);
  });
  upstream.on('response', (response) => {
    const named = new Set(
      (response.headers.connection ?? '').split(',').map((h) => h.trim().toLowerCase()),
    );
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined || hopByHop.has(name) || named.has(name)) continue;
      out[name] = value;
    }
    res.writeHead(response.statusCode ?? 502, out);
    response.on('error', () => res.destroy());
    response.pipe(res);
  });
  res.once('close', () => {
    if (!res.writableFinished) upstream.destroy();
    socket.destroy();
  });
  req.pipe(upstream);
}
