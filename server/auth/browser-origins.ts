import type { Env } from '../env';

/**
 * The names and origins this server answers to in a browser, from its configuration: the
 * loopback names at the port it listens on, plus the host of SHADOWBOX_PUBLIC_URL. The browser
 * endpoints refuse requests addressed elsewhere (api/browser-origin.ts) and the accounts trust
 * these origins (runtime.ts); defined here, below both.
 */

/** The names and origins the browser endpoints answer to. */
export interface BrowserOrigins {
  /** Accepted `Host` values, lower case: `127.0.0.1:3000`, `localhost:3000`, … */
  readonly hosts: ReadonlySet<string>;
  /** Accepted `Origin` values on state changes: `http://127.0.0.1:3000`, … */
  readonly origins: ReadonlySet<string>;
  /** The loopback hosts, for messages (the public URL is not echoed to strangers). */
  readonly loopbackHosts: readonly string[];
}

const loopbackNames = ['127.0.0.1', 'localhost', '[::1]'] as const;
const defaultPorts: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

export function browserOrigins(config: Pick<Env, 'port' | 'publicUrl'>): BrowserOrigins {
  const hosts = new Set<string>();
  const origins = new Set<string>();
  const loopbackHosts: string[] = [];
  for (const name of loopbackNames) {
    const host = config.port === 80 ? name : `${name}:${config.port}`;
    loopbackHosts.push(host);
    hosts.add(host);
    origins.add(`http://${host}`);
    // A client may spell the default port out; a browser never does.
    if (config.port === 80) hosts.add(`${name}:80`);
  }
  const url = config.publicUrl;
  if (url !== null) {
    hosts.add(url.host.toLowerCase());
    const defaultPort = defaultPorts[url.protocol];
    if (url.port === '' && defaultPort !== undefined) {
      hosts.add(`${url.hostname.toLowerCase()}:${defaultPort}`);
    }
    origins.add(url.origin);
  }
  return { hosts, origins, loopbackHosts };
}
