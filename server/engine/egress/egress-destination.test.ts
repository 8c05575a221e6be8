import { describe, expect, it } from 'vitest';
import { parseEgressAllow, parseEgressEntry } from './allowlist';
import { admitDestination } from './egress-destination';
import { Refusal } from './egress-refusal';

/**
 * What a name on the allowlist may resolve to. `=local` used to admit any reachable answer, so
 * a `=local` name pointed at 127.0.0.1 reached the host's own ports and one pointed at
 * 169.254.169.254 its cloud's instance credentials; now it admits private ranges only.
 */
async function verdict(entry: string, answer: string): Promise<string> {
  const allowlist = parseEgressAllow(entry, { entries: [] });
  const host = allowlist.entries[0]?.host ?? '';
  const result = await admitDestination(
    allowlist,
    () => Promise.resolve([answer]),
    { host, port: 443 },
    false,
  );
  return result instanceof Refusal ? `${result.status} ${result.reason}` : 'admitted';
}

describe('=local admits private ranges only', () => {
  it.each([
    ['10.0.0.1'],
    ['172.16.0.1'],
    ['192.168.1.10'],
    ['100.64.0.1'],
    ['fd12:3456::1'],
    // Documentation ranges: no public host is there, nor the host itself, nor a metadata service.
    ['203.0.113.80'],
    ['192.0.2.2'],
    ['2001:db8::5'],
    ['::ffff:10.0.0.1'],
  ])('admits a =local name resolving to %s', async (answer) => {
    expect(await verdict('npm.corp.example=local', answer)).toBe('admitted');
  });

  it.each([
    [
      '127.0.0.1',
      '403 npm.corp.example resolves to 127.0.0.1, a loopback address, which no egress entry may reach (=local admits private addresses only)',
    ],
    [
      '127.8.9.10',
      '403 npm.corp.example resolves to 127.8.9.10, a loopback address, which no egress entry may reach (=local admits private addresses only)',
    ],
    [
      '::1',
      '403 npm.corp.example resolves to ::1, a loopback address, which no egress entry may reach (=local admits private addresses only)',
    ],
    [
      '::ffff:127.0.0.1',
      '403 npm.corp.example resolves to 127.0.0.1, a loopback address, which no egress entry may reach (=local admits private addresses only)',
    ],
    [
      '169.254.169.254',
      '403 npm.corp.example resolves to 169.254.169.254, a cloud metadata address, which no egress entry may reach (=local admits private addresses only)',
    ],
    [
      '169.254.1.1',
      '403 npm.corp.example resolves to 169.254.1.1, a linkLocal address, which no egress entry may reach (=local admits private addresses only)',
    ],
    [
      'fe80::1',
      '403 npm.corp.example resolves to fe80::1, a linkLocal address, which no egress entry may reach (=local admits private addresses only)',
    ],
    [
      'fd00:ec2::254',
      '403 npm.corp.example resolves to fd00:ec2::254, a cloud metadata address, which no egress entry may reach (=local admits private addresses only)',
    ],
    [
      '100.100.100.200',
      '403 npm.corp.example resolves to 100.100.100.200, a cloud metadata address, which no egress entry may reach (=local admits private addresses only)',
    ],
    [
      '0.0.0.0',
      '403 npm.corp.example resolves to 0.0.0.0, an unspecified address, which no egress entry may reach (=local admits private addresses only)',
    ],
    [
      '64:ff9b::7f00:1',
      '403 npm.corp.example resolves to 64:ff9b::7f00:1, a rfc6052 address, which no egress entry may reach (=local admits private addresses only)',
    ],
  ])('refuses a =local name resolving to %s, naming why', async (answer, refusal) => {
    expect(await verdict('npm.corp.example=local', answer)).toBe(refusal);
  });

  it('tells an unmarked entry resolving to a private address that =local would admit it', async () => {
    expect(await verdict('npm.corp.example', '10.0.0.1')).toBe(
      '403 npm.corp.example resolves to 10.0.0.1, a private address, not a public one (mark the entry =local to allow it)',
    );
  });

  it('never suggests =local for loopback or metadata to an unmarked entry', async () => {
    expect(await verdict('npm.corp.example', '127.0.0.1')).toBe(
      '403 npm.corp.example resolves to 127.0.0.1, a loopback address, which no egress entry may reach (=local admits private addresses only)',
    );
    expect(await verdict('npm.corp.example', '169.254.169.254')).toBe(
      '403 npm.corp.example resolves to 169.254.169.254, a cloud metadata address, which no egress entry may reach (=local admits private addresses only)',
    );
  });

  it('admits a public answer, marked or not', async () => {
    expect(await verdict('registry.example', '93.184.216.34')).toBe('admitted');
    expect(await verdict('registry.example=local', '93.184.216.34')).toBe('admitted');
  });

  it('refuses the whole name when one answer of several is refused', async () => {
    const allowlist = parseEgressAllow('mixed.example=local', { entries: [] });
    const result = await admitDestination(
      allowlist,
      () => Promise.resolve(['10.0.0.1', '127.0.0.1']),
      { host: 'mixed.example', port: 443 },
      false,
    );
    expect(result).toBeInstanceOf(Refusal);
  });
});

describe('IP literal entries', () => {
  it('reach the very address the operator named, loopback included', async () => {
    expect(await verdict('127.0.0.1', '127.0.0.1')).toBe('admitted');
  });

  it('refuse to name a cloud metadata address at all', () => {
    expect(() => parseEgressEntry('169.254.169.254')).toThrow(
      "SHADOWBOX_EGRESS_ALLOW: entry '169.254.169.254' names the cloud metadata address 169.254.169.254, which no setup command may reach",
    );
    expect(() => parseEgressEntry('[fd00:ec2::254]:80')).toThrow(
      "SHADOWBOX_EGRESS_ALLOW: entry '[fd00:ec2::254]:80' names the cloud metadata address fd00:ec2::254, which no setup command may reach",
    );
  });
});
