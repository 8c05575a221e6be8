import { readFile } from 'node:fs/promises';

// Kernel and pseudo file systems: nothing a run could damage by writing, or replaced inside the
// sandbox by private mounts anyway.
const pseudo = new Set([
  'proc',
  'sysfs',
  'cgroup',
  'cgroup2',
  'devpts',
  'mqueue',
  'debugfs',
  'tracefs',
  'securityfs',
  'pstore',
  'bpf',
  'configfs',
  'fusectl',
  'hugetlbfs',
  'autofs',
  'binfmt_misc',
  'efivarfs',
  'nsfs',
]);

// mountinfo escapes space, tab, newline and backslash as octal.
const unescape = (field: string): string =>
  field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

/**
 * The host's writable mount points, from /proc/self/mountinfo, in mount order: the ones a sandbox
 * makes read-only. A process mapped to the server's own user could otherwise write anything that
 * user can, starting with the server's database.
 */
export function writableMounts(mountinfo: string): string[] {
  const points: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const [head, tail] = line.split(' - ');
    if (head === undefined || tail === undefined) continue;
    const fields = head.split(' ');
    const mountPoint = unescape(fields[4] ?? '');
    const options = (fields[5] ?? '').split(',');
    const fsType = tail.split(' ')[0] ?? '';
    if (!options.includes('rw') || pseudo.has(fsType)) continue;
    // /proc and /sys are the sandbox's own or read-only; /dev is replaced by one of its own.
    if (/^\/(proc|sys|dev)(\/|$)/.test(mountPoint)) continue;
    if (!points.includes(mountPoint)) points.push(mountPoint);
  }
  return points;
}

export async function hostWritableMounts(): Promise<string[]> {
  return writableMounts(await readFile('/proc/self/mountinfo', 'utf8'));
}
