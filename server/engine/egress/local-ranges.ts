import ipaddr from 'ipaddr.js';

/**
 * Which non-public addresses a name marked `=local` may resolve to: an index on the operator's
 * own network, i.e. the private ranges (10/8, 172.16/12, 192.168/16, fc00::/7) and shared address
 * space (100.64/10). Never the host itself (loopback: its own ports, this server, its database),
 * link-local (169.254/16 and fe80::/10, where cloud metadata services answer) or a cloud's
 * metadata address inside an admitted range.
 *
 * The documentation ranges (192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32) are admitted
 * too: no public host uses them, so a name resolving there names a network the operator set up
 * (some development networks serve the npm registry on one), and they are neither the host
 * itself nor a metadata service.
 */
const admittedRanges = new Set(['private', 'carrierGradeNat', 'uniqueLocal']);

const documentation = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'].map(
  (cidr) => ipaddr.parseCIDR(cidr),
);

/**
 * Cloud metadata services (instance credentials) that sit in admitted ranges: AWS's IPv6 one
 * (fd00:ec2::254, unique-local) and Alibaba Cloud's (100.100.100.200, shared address space).
 * The others (169.254.169.254, 169.254.170.2, fe80::a9fe:a9fe) are link-local, never admitted.
 */
const metadataAddresses = new Set(
  ['fd00:ec2::254', '100.100.100.200', '169.254.169.254', '169.254.170.2'].map((a) =>
    ipaddr.parse(a).toString(),
  ),
);

export function isMetadataAddress(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return metadataAddresses.has(ip.toString());
}

function isDocumentation(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return documentation.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}

/**
 * Null when a `=local` name may resolve to `ip` (already `ipaddr.process`ed, so an IPv4-mapped
 * IPv6 address is judged as the IPv4 one); else why not, for the refusal.
 */
export function localAddressProblem(ip: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  if (isMetadataAddress(ip)) return 'a cloud metadata address';
  const range = ip.range();
  if (admittedRanges.has(range) || isDocumentation(ip)) return null;
  return `${/^[aeiou]/.test(range) ? 'an' : 'a'} ${range} address`;
}
