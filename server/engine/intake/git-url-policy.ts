import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { localAddressProblem, type EgressAllowEntry } from '../egress';
import { gitAllowVariable } from './git-allow';
import { asRejectedResult, reject, type IntakeResult } from './intake-result';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to every address it has. Injected in tests: no test touches real DNS. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: HostResolver = (hostname) =>
  lookup(hostname, { all: true, verbatim: true });

export interface GitUrlPolicyOptions {
  readonly resolver?: HostResolver;
  /**
   * TEST ONLY: also admit `http:`, any port and loopback addresses, so integration tests can clone
   * from a `git http-backend` they start on 127.0.0.1. Off by default. It is a constructor option
   * and nothing else: no environment variable, CLI flag or request field reaches it, and the
   * exported default policy (`defaultGitUrlPolicy`) never sets it.
   */
  readonly testOnlyAllowLoopback?: boolean;
  /**
   * The team's own forges (`SHADOWBOX_GIT_ALLOW`, see `parseGitAllow`): a URL naming one of these
   * hosts on its port may use plain HTTP (`http://` entries) and resolve to a private address
   * (`=local` entries). Every other URL gets the public https policy.
   */
  readonly forges?: readonly EgressAllowEntry[];
}

/** A URL that passed the policy, with the address git must connect to. */
export interface PinnedGitUrl {
  readonly href: string;
  readonly hostname: string;
  readonly port: number;
  readonly address: string;
  /** `-c http.curloptResolve=` value pinning the checked address, or null for an IP literal. */
  readonly curloptResolve: string | null;
  readonly protocol: 'https' | 'http';
}

// Whitespace and controls are stripped silently by WHATWG parsing; we refuse them instead.
// eslint-disable-next-line no-control-regex
const unsafeCharacters = /[\u0000-\u0020\u007f\\]/;
const hostLabel = /^[a-z0-9-]+$/;

export class GitUrlPolicy {
  readonly #resolver: HostResolver;
  readonly #loopbackForTests: boolean;
  readonly #forges: readonly EgressAllowEntry[];

  constructor(options: GitUrlPolicyOptions = {}) {
    this.#resolver = options.resolver ?? systemResolver;
    this.#loopbackForTests = options.testOnlyAllowLoopback === true;
    this.#forges = options.forges ?? [];
  }

  get allowsPlainHttpForTests(): boolean {
    return this.#loopbackForTests;
  }

  async check(raw: string): Promise<IntakeResult<{ readonly url: PinnedGitUrl }>> {
    try {
      return { ok: true, url: await this.pin(raw) };
    } catch (error) {
      return asRejectedResult(error);
    }
  }

  /** Like `check`, but throws the IntakeRejection (for callers inside an intake step). */
  async pin(raw: string): Promise<PinnedGitUrl> {
    if (raw.length === 0 || raw.length > 2048 || raw.startsWith('-')) {
      throw reject('URL_INVALID', 'not a Git URL');
    }
    if (unsafeCharacters.test(raw)) {
      throw reject('URL_INVALID', 'URL contains whitespace, a control character or a backslash');
    }
    const url = URL.parse(raw);
    if (url === null) throw reject('URL_INVALID', 'not a valid absolute URL');
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const isLiteral = ipaddr.isValid(literal);
    const forge = this.forgeOf(isLiteral ? ipaddr.parse(literal).toString() : url.hostname, port);
    const httpAllowed =
      url.protocol === 'http:' && (this.#loopbackForTests || forge?.plainHttp === true);
    if (url.protocol !== 'https:' && !httpAllowed) {
      throw reject(
        'URL_SCHEME',
        `only https URLs are accepted, not ${url.protocol}${forge === null ? '' : ` (${gitAllowVariable} admits ${url.hostname} over https only)`}`,
      );
    }
    const authority = raw.slice(url.protocol.length + 2).split(/[/?#]/, 1)[0] ?? '';
    if (url.username !== '' || url.password !== '' || authority.includes('@')) {
      throw reject('URL_USERINFO', 'credentials in the URL are not accepted');
    }
    if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
      throw reject('URL_QUERY_OR_FRAGMENT', 'query strings and fragments are not accepted');
    }
    if (url.port !== '' && !this.#loopbackForTests && forge === null) {
      throw reject('URL_PORT', 'only the default https port 443 is accepted');
    }
    const addresses = isLiteral ? [literal] : await this.resolve(url.hostname);
    for (const address of addresses) this.assertReachable(address, forge);
    const [address] = addresses;
    if (address === undefined) throw reject('URL_RESOLVE_FAILED', `${url.hostname} has no address`);
    const pinned = address.includes(':') ? `[${address}]` : address;
    return {
      href: url.href,
      hostname: url.hostname,
      port,
      address,
      curloptResolve: isLiteral ? null : `${url.hostname}:${port}:${pinned}`,
      protocol: url.protocol === 'https:' ? 'https' : 'http',
    };
  }

  private async resolve(hostname: string): Promise<string[]> {
    if (!hostname.split('.').every((label) => hostLabel.test(label))) {
      throw reject('URL_INVALID', 'host name has characters outside letters, digits and `-`');
    }
    let found: readonly ResolvedAddress[];
    try {
      found = await this.#resolver(hostname);
    } catch (error) {
      throw reject('URL_RESOLVE_FAILED', `could not resolve ${hostname}: ${String(error)}`);
    }
    if (found.length === 0) throw reject('URL_RESOLVE_FAILED', `${hostname} has no address`);
    return found.map((entry) => entry.address);
  }

  /** The forge entry naming this host on this port, if an operator listed one. */
  private forgeOf(host: string, port: number): EgressAllowEntry | null {
    const name = host.toLowerCase().replace(/\.$/, '');
    return this.#forges.find((entry) => entry.host === name && entry.port === port) ?? null;
  }

  /**
   * Every address must be plain public unicast, or, for a forge marked `=local`, a private one
   * (never loopback, link-local or a metadata service: see local-ranges.ts); one address that
   * fails fails the whole name.
   */
  private assertReachable(address: string, forge: EgressAllowEntry | null): void {
    if (!ipaddr.isValid(address)) throw reject('URL_INVALID', `not an IP address: ${address}`);
    const ip = ipaddr.process(address);
    const range = ip.range();
    if (range === 'unicast' || (this.#loopbackForTests && range === 'loopback')) return;
    if (forge?.local === true && localAddressProblem(ip) === null) return;
    const hint =
      forge === null
        ? ''
        : forge.local
          ? ` (${gitAllowVariable}'s =local admits private addresses only)`
          : ` (mark the ${gitAllowVariable} entry =local to admit a private address)`;
    throw reject('URL_PRIVATE_ADDRESS', `address ${address} is not public (${range})${hint}`, {
      address,
      range,
    });
  }
}

/** The policy every request path uses: system DNS, https only, public addresses only. */
export const defaultGitUrlPolicy = new GitUrlPolicy();
