/**
 * File names a compromised store or a future bug could hand a download, each with what the header
 * must name instead: quotes, CR/LF, path parts and non-ASCII all become `_`.
 */
export const hostileFileNames: readonly (readonly [string, string])[] = [
  ['a"b.patch', 'a_b.patch'],
  ['a\r\nSet-Cookie: x=1.patch', 'a__Set-Cookie__x_1.patch'],
  ['../../etc/passwd', '.._.._etc_passwd'],
  ['..\\secret.patch', '.._secret.patch'],
  ['änderung-€.patch', '_nderung-_.patch'],
  ["x; filename*=UTF-8''evil", 'x__filename__UTF-8__evil'],
];
