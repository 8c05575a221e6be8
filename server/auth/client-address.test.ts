import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { addressKey, clientAddress, parseTrustedProxies } from './client-address';
import { backoffDelayMs, signInBackoff } from './sign-in-throttle';

describe('clientAddress', () => {
  const none = parseTrustedProxies(undefined);
  const proxies = parseTrustedProxies('10.0.0.0/8, 192.168.1.1, fd00::/8');

  it('believes no header by default: a forged X-Forwarded-For is the socket’s address', () => {
    expect(
      clientAddress({
        socketAddress: '198.51.100.7',
        forwardedFor: '203.0.113.9',
        trustedProxies: none,
      }),
    ).toBe('198.51.100.7');
    // A trusted list does not help a peer that is not on it.
    expect(
      clientAddress({
        socketAddress: '198.51.100.7',
        forwardedFor: '203.0.113.9, 10.0.0.1',
        trustedProxies: proxies,
      }),
    ).toBe('198.51.100.7');
  });

  it('behind trusted proxies takes the right-most hop that is not one of them', () => {
    expect(
      clientAddress({
        socketAddress: '10.1.1.1',
        forwardedFor: '6.6.6.6, 203.0.113.9, 192.168.1.1',
        trustedProxies: proxies,
      }),
    ).toBe('203.0.113.9');
    expect(
      clientAddress({
        socketAddress: '::ffff:10.1.1.1',
        forwardedFor: ['203.0.113.9', '10.2.2.2'],
        trustedProxies: proxies,
      }),
    ).toBe('203.0.113.9');
    expect(
      clientAddress({
        socketAddress: 'fd00::1',
        forwardedFor: '2001:db8::5',
        trustedProxies: proxies,
      }),
    ).toBe('2001:db8::5');
  });

  it('stops at a malformed hop and falls back to the socket without a header', () => {
    expect(
      clientAddress({
        socketAddress: '10.1.1.1',
        forwardedFor: '203.0.113.9, not-an-ip, 192.168.1.1',
        trustedProxies: proxies,
      }),
    ).toBe('192.168.1.1');
    expect(
      clientAddress({
        socketAddress: '10.1.1.1',
        forwardedFor: undefined,
        trustedProxies: proxies,
      }),
    ).toBe('10.1.1.1');
    expect(
      clientAddress({ socketAddress: undefined, forwardedFor: '1.2.3.4', trustedProxies: proxies }),
    ).toBeNull();
  });
});

describe('parseTrustedProxies', () => {
  it('refuses an entry that is not an address or a range, naming it', () => {
    const error: unknown = (() => {
      try {
        parseTrustedProxies('10.0.0.0/8, proxy.internal');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'SHADOWBOX_TRUSTED_PROXIES: "proxy.internal" is not an IP address or CIDR range',
    });
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(AppError);
    expect(parseTrustedProxies(' , ')).toEqual([]);
  });
});

describe('addressKey', () => {
  it('counts an IPv6 client by its /64, so rotating within it does not help', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:ffff::9'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey(null)).toBe('unknown');
  });
});

describe('sign-in backoff', () => {
  it('lets five tries through, then waits a minute, doubling up to an hour', () => {
    const waits = [0, 4, 5, 6, 7, 11, 40].map((tries) => backoffDelayMs(tries, signInBackoff));
    expect(waits).toEqual([0, 0, 60_000, 120_000, 240_000, 3_600_000, 3_600_000]);
  });
});
