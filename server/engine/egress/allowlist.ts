import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../../errors/app-error';
import { isMetadataAddress } from './local-ranges';
import { readToolConfig, type ToolConfig } from './tool-config';

/**
 * One destination setup commands may reach through the egress proxy. Hosts match exactly (no
 * wildcards, no subdomains): a package manager talks to a handful of named hosts, and every one
 * of them is an operator's decision.
 */
export interface EgressAllowEntry {
  /** A lower-case DNS name without a trailing dot, or an IP address (IPv6 without brackets). */
  readonly host: string;
  readonly port: number;
  readonly ipLiteral: boolean;
  /**
   * Plain HTTP requests (absolute-form `GET http://…`) are forwarded: only for entries that name
   * `http://` or an IP address, i.e. an index the operator runs on a local network.
   */
  readonly plainHttp: boolean;
  /**
   * The host may resolve to a private address (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7,
   * the documentation ranges): an index on the operator's own network. Never loopback, link-local
   * or a metadata service, marked or not (a name pointed at the metadata service or the host's own
   * ports must not open a way in; see local-ranges.ts). An IP literal is local by naming itself.
   */
  readonly local: boolean;
}

export interface EgressAllowlist {
  readonly entries: readonly EgressAllowEntry[];
}

/** The environment variable operators extend or replace the default allowlist with. */
export const egressAllowVariable = 'SHADOWBOX_EGRESS_ALLOW';

const localFlag = '=local';

type Refuse = (entry: string, why: string) => AppError;
const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// A last label of digits or hex would make the resolver read the name as an address (`127.1`).
const numericLabel = /^(?:\d+|0x[0-9a-f]*)$/;
const neverReachable = new Set(['unspecified', 'multicast', 'broadcast']);

const refuseIn =
  (variable: string) =>
  (entry: string, why: string): AppError =>
    new AppError('INVALID_ARGUMENT', `${variable}: entry '${entry}' ${why}`, {
      details: { entry },
    });
const refuse = refuseIn(egressAllowVariable);

function parsePort(entry: string, text: string, refuse: Refuse): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65_535) {
    throw refuse(entry, `has port '${text}', not a whole number from 1 to 65535`);
  }
  return Number(text);
}

function parseHost(
  entry: string,
  text: string,
  refuse: Refuse,
): { host: string; ipLiteral: boolean } {
  if (net.isIP(text) !== 0) {
    const range = ipaddr.process(text).range();
    if (neverReachable.has(range)) {
      throw refuse(entry, `names the ${range} address ${text}, which no connection reaches`);
    }
    if (isMetadataAddress(ipaddr.process(text))) {
      throw refuse(
        entry,
        `names the cloud metadata address ${text}, which no setup command may reach`,
      );
    }
    return { host: ipaddr.parse(text).toString(), ipLiteral: true };
  }
  if (text.includes('*')) throw refuse(entry, 'has a wildcard: name each host');
  const name = text.toLowerCase().replace(/\.$/, '');
  const labels = name.split('.');
  if (name.length > 253 || !labels.every((l) => label.test(l))) {
    throw refuse(entry, 'is not a host name (letters, digits, `-` and `.`) or an IP address');
  }
  if (numericLabel.test(labels.at(-1) ?? '')) {
    throw refuse(entry, 'is neither a dotted IPv4 address nor a host name');
  }
  return { host: name, ipLiteral: false };
}

/**
 * One entry: `[http://|https://]host[:port][=local]`, where host is a DNS name, a dotted IPv4
 * address or a bracketed IPv6 address. The port defaults to 443, or 80 after `http://`.
 */
export function parseEgressEntry(
  entry: string,
  variable: string = egressAllowVariable,
): EgressAllowEntry {
  const refuse = refuseIn(variable);
  if (/[?#\\\s]/.test(entry)) throw refuse(entry, 'has a path, query or space: name a host');
  let text = entry;
  const local = text.endsWith(localFlag);
  if (local) text = text.slice(0, -localFlag.length);
  if (text.includes('=')) throw refuse(entry, `has an unknown flag: only '${localFlag}' exists`);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text);
  if (scheme !== null) {
    const name = scheme[1]?.toLowerCase();
    if (name !== 'http' && name !== 'https') {
      throw refuse(entry, `has scheme '${scheme[1] ?? ''}': only http:// and https:// exist`);
    }
    text = text.slice(scheme[0].length).replace(/\/$/, '');
  }
  if (/[@]/.test(text)) throw refuse(entry, 'has credentials: they are never sent through');
  if (text.includes('/')) throw refuse(entry, 'has a path, query or space: name a host');
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(text);
  let hostText: string;
  let portText: string | undefined;
  if (bracketed !== null) {
    hostText = bracketed[1] ?? '';
    portText = bracketed[2];
    if (!net.isIPv6(hostText)) throw refuse(entry, 'has brackets around no IPv6 address');
  } else {
    const parts = text.split(':');
    if (parts.length > 2) throw refuse(entry, 'has an IPv6 address without brackets');
    [hostText = '', portText] = parts;
  }
  if (hostText === '') throw refuse(entry, 'has no host');
  const { host, ipLiteral } = parseHost(entry, hostText, refuse);
  const plainScheme = scheme?.[1]?.toLowerCase() === 'http';
  const port =
    portText === undefined ? (plainScheme ? 80 : 443) : parsePort(entry, portText, refuse);
  return { host, port, ipLiteral, plainHttp: plainScheme || ipLiteral, local: local || ipLiteral };
}

/** Entries naming the same host and port become one, with the flags of either. */
function merged(entries: readonly EgressAllowEntry[]): EgressAllowEntry[] {
  const byKey = new Map<string, EgressAllowEntry>();
  for (const entry of entries) {
    const key = `${entry.host} ${entry.port}`;
    const seen = byKey.get(key);
    byKey.set(
      key,
      seen === undefined
        ? entry
        : {
            ...seen,
            plainHttp: seen.plainHttp || entry.plainHttp,
            local: seen.local || entry.local,
          },
    );
  }
  return [...byKey.values()];
}

/**
 * `SHADOWBOX_EGRESS_ALLOW`, a comma-separated list of entries (see `parseEgressEntry`):
 * - unset or empty: the defaults;
 * - every entry starting with `+`: the defaults plus these;
 * - no entry starting with `+`: these instead of the defaults;
 * - `none`: nothing at all (setup commands get no network).
 * Mixing `+` entries with plain ones, empty entries and malformed ones are refused, naming the
 * entry: a typo must not silently narrow or widen what untrusted install scripts can reach.
 */
export function parseEgressAllow(
  value: string | undefined,
  defaults: EgressAllowlist,
): EgressAllowlist {
  const text = value?.trim() ?? '';
  if (text === '') return defaults;
  if (text === 'none') return { entries: [] };
  const raw = text.split(',').map((e) => e.trim());
  const empty = raw.findIndex((e) => e === '' || e === '+');
  if (empty !== -1) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `${egressAllowVariable}: entry ${empty + 1} is empty (entries are separated by single commas)`,
    );
  }
  const adding = raw.filter((e) => e.startsWith('+'));
  if (adding.length > 0 && adding.length < raw.length) {
    const plain = raw.find((e) => !e.startsWith('+')) ?? '';
    throw refuse(
      plain,
      'has no `+` while others do: either every entry adds to the defaults (`+host`) or none does (the list replaces them)',
    );
  }
  if (raw.includes('none')) throw refuse('none', 'must stand alone');
  const entries = raw.map((e) => parseEgressEntry(e.replace(/^\+/, '')));
  return { entries: merged(adding.length > 0 ? [...defaults.entries, ...entries] : entries) };
}

const https = (host: string, port = 443): EgressAllowEntry => ({
  host,
  port,
  ipLiteral: false,
  plainHttp: false,
  local: false,
});

/** The entry a configured index URL needs: its scheme decides plain HTTP; it is never `=local`. */
function entryOfUrl(href: string): EgressAllowEntry | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  try {
    return parseEgressEntry(`${url.protocol}//${url.host}`);
  } catch {
    return null;
  }
}

/**
 * The allowlist the package managers' own configuration implies: npm's configured registry, the
 * Python index (unless pip's index URL replaces it) and pip's configured indexes' hosts, the crates registry,
 * the cargo config's mirrors, the Go module proxy (`GOPROXY`'s hosts, else the public one) and
 * checksum database.
 */
export function allowlistOfToolConfig(config: ToolConfig): EgressAllowlist {
  const urls = [
    config.npmRegistry,
    ...config.pipIndexUrls,
    ...config.goProxies,
    ...config.cargoSources,
  ];
  const entries = urls.map(entryOfUrl).filter((e): e is EgressAllowEntry => e !== null);
  if (config.pipPublicIndex) entries.push(https('pypi.org'), https('files.pythonhosted.org'));
  entries.push(https('index.crates.io'), https('static.crates.io'), https('crates.io'));
  if (config.goProxies.length === 0) entries.push(https('proxy.golang.org'));
  if (config.goSumDb !== null) {
    const entry = entryOfUrl(config.goSumDb);
    if (entry !== null) entries.push(entry);
  }
  return { entries: merged(entries) };
}

/** The default allowlist of this machine, read from its configuration (see `readToolConfig`). */
export async function defaultEgressAllowlist(
  options: { readonly config?: ToolConfig } = {},
): Promise<EgressAllowlist> {
  return allowlistOfToolConfig(options.config ?? (await readToolConfig()));
}

/** The entry that lets `host:port` through, if any. */
export function findEgressEntry(
  allowlist: EgressAllowlist,
  host: string,
  port: number,
): EgressAllowEntry | undefined {
  return allowlist.entries.find((e) => e.host === host && e.port === port);
}

/** An allowlist as operators write it, e.g. for a start-up log line. */
export function formatEgressAllowlist(allowlist: EgressAllowlist): string {
  if (allowlist.entries.length === 0) return 'none';
  return allowlist.entries
    .map((e) => {
      const host = e.host.includes(':') ? `[${e.host}]` : e.host;
      const scheme = e.plainHttp && !e.ipLiteral ? 'http://' : '';
      const local = e.local && !e.ipLiteral ? localFlag : '';
      return `${scheme}${host}:${e.port}${local}`;
    })
    .join(',');
}
