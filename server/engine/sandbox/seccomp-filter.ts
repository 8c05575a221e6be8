/**
 * The seccomp filter every run's command gets (bubblewrap's `--seccomp FD`): a classic BPF program
 * over `struct seccomp_data`, built here from a table rather than by a library, so what the kernel
 * enforces is readable in one file and checked by an interpreter in the tests.
 *
 * The deny-list is the one container runtimes (Docker's and Podman's default profiles) apply to
 * an unprivileged container: loading kernel code, kernel keyrings, BPF and perf, the new and old
 * mount APIs, namespaces (unshare, setns, clone with a CLONE_NEW* flag), file handles that bypass
 * the mount a path is on, swap, reboot, the clock, the kernel log, io_uring (its operations are
 * not seen by this filter) and userfaultfd (a tool of kernel exploits). Denied calls fail with
 * EPERM, as they would for a process without the capability. `clone3` fails with ENOSYS instead:
 * its flags live in memory a filter cannot read, and libc falls back to `clone`, whose flags it
 * can. ptrace stays allowed: the run's PID namespace holds nothing else it could name, and
 * sanitizers (LeakSanitizer) and debuggers in test suites need it.
 *
 * A call made through another ABI (x32 on x86_64, or a foreign architecture) kills the process: its
 * numbers are not the ones this table names.
 */

export type SeccompArch = 'x64' | 'arm64';

/** Syscalls a run may not make, with their numbers per architecture (absent: no such call). */
const denied: Readonly<Record<string, Partial<Record<SeccompArch, number>>>> = {
  acct: { x64: 163, arm64: 89 },
  add_key: { x64: 248, arm64: 217 },
  bpf: { x64: 321, arm64: 280 },
  clock_adjtime: { x64: 305, arm64: 266 },
  clock_settime: { x64: 227, arm64: 112 },
  create_module: { x64: 174 },
  delete_module: { x64: 176, arm64: 106 },
  finit_module: { x64: 313, arm64: 273 },
  fsconfig: { x64: 431, arm64: 431 },
  fsmount: { x64: 432, arm64: 432 },
  fsopen: { x64: 430, arm64: 430 },
  fspick: { x64: 433, arm64: 433 },
  get_kernel_syms: { x64: 177 },
  init_module: { x64: 175, arm64: 105 },
  io_uring_enter: { x64: 426, arm64: 426 },
  io_uring_register: { x64: 427, arm64: 427 },
  io_uring_setup: { x64: 425, arm64: 425 },
  ioperm: { x64: 173 },
  iopl: { x64: 172 },
  kcmp: { x64: 312, arm64: 272 },
  kexec_file_load: { x64: 320, arm64: 294 },
  kexec_load: { x64: 246, arm64: 104 },
  keyctl: { x64: 250, arm64: 219 },
  lookup_dcookie: { x64: 212, arm64: 18 },
  mount: { x64: 165, arm64: 40 },
  mount_setattr: { x64: 442, arm64: 442 },
  move_mount: { x64: 429, arm64: 429 },
  name_to_handle_at: { x64: 303, arm64: 264 },
  nfsservctl: { x64: 180, arm64: 42 },
  open_by_handle_at: { x64: 304, arm64: 265 },
  open_tree: { x64: 428, arm64: 428 },
  perf_event_open: { x64: 298, arm64: 241 },
  pivot_root: { x64: 155, arm64: 41 },
  process_vm_readv: { x64: 310, arm64: 270 },
  process_vm_writev: { x64: 311, arm64: 271 },
  query_module: { x64: 178 },
  quotactl: { x64: 179, arm64: 60 },
  quotactl_fd: { x64: 443, arm64: 443 },
  reboot: { x64: 169, arm64: 142 },
  request_key: { x64: 249, arm64: 218 },
  setns: { x64: 308, arm64: 268 },
  settimeofday: { x64: 164, arm64: 170 },
  swapoff: { x64: 168, arm64: 225 },
  swapon: { x64: 167, arm64: 224 },
  syslog: { x64: 103, arm64: 116 },
  _sysctl: { x64: 156 },
  sysfs: { x64: 139 },
  umount2: { x64: 166, arm64: 39 },
  unshare: { x64: 272, arm64: 97 },
  uselib: { x64: 134 },
  userfaultfd: { x64: 323, arm64: 282 },
  ustat: { x64: 136 },
  vhangup: { x64: 153, arm64: 58 },
};

const clone = { x64: 56, arm64: 220 } as const;
const clone3 = { x64: 435, arm64: 435 } as const;

/** linux/audit.h: the `arch` field of seccomp_data. */
const auditArch = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;
/** x86_64 marks x32-ABI calls with this bit in the number. */
const x32Bit = 0x40000000;

/** CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWTIME */
export const cloneNamespaceFlags = 0x7e020080;

const EPERM = 1;
const ENOSYS = 38;

export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
export const SECCOMP_RET_ERRNO = 0x00050000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;

// Classic BPF opcodes (linux/filter.h) used by the program.
export const BPF_LD_W_ABS = 0x20;
export const BPF_JEQ_K = 0x15;
export const BPF_JGE_K = 0x35;
export const BPF_JSET_K = 0x45;
export const BPF_RET_K = 0x06;

/** Offsets into struct seccomp_data: nr, arch, then args[0]'s low 32 bits (little-endian). */
const offsetNr = 0;
const offsetArch = 4;
const offsetArg0Low = 16;

type Label = 'allow' | 'eperm' | 'enosys' | 'kill' | 'clone';
type Jump = number | Label;
interface Op {
  readonly code: number;
  readonly k: number;
  readonly jt?: Jump;
  readonly jf?: Jump;
  readonly label?: Label;
}

/** The architecture of this process, if the filter knows its syscall numbers. */
export function seccompArch(arch: string = process.arch): SeccompArch | null {
  return arch === 'x64' || arch === 'arm64' ? arch : null;
}

/** The names of the calls the filter denies on `arch` (for the docs, the probe and the tests). */
export function deniedSyscalls(arch: SeccompArch): { name: string; nr: number }[] {
  return Object.entries(denied).flatMap(([name, numbers]) => {
    const nr = numbers[arch];
    return nr === undefined ? [] : [{ name, nr }];
  });
}

/** The filter as the kernel reads it: 8-byte `struct sock_filter` entries, native byte order. */
export function seccompProgram(arch: SeccompArch): Buffer {
  const ops: Op[] = [
    { code: BPF_LD_W_ABS, k: offsetArch },
    { code: BPF_JEQ_K, k: auditArch[arch], jt: 0, jf: 'kill' },
    { code: BPF_LD_W_ABS, k: offsetNr },
    ...(arch === 'x64' ? [{ code: BPF_JGE_K, k: x32Bit, jt: 'kill' as const, jf: 0 }] : []),
    ...deniedSyscalls(arch).map(({ nr }) => ({
      code: BPF_JEQ_K,
      k: nr,
      jt: 'eperm' as const,
      jf: 0,
    })),
    { code: BPF_JEQ_K, k: clone3[arch], jt: 'enosys', jf: 0 },
    { code: BPF_JEQ_K, k: clone[arch], jt: 'clone', jf: 'allow' },
    { label: 'clone', code: BPF_LD_W_ABS, k: offsetArg0Low },
    { code: BPF_JSET_K, k: cloneNamespaceFlags, jt: 'eperm', jf: 'allow' },
    { label: 'allow', code: BPF_RET_K, k: SECCOMP_RET_ALLOW },
    { label: 'eperm', code: BPF_RET_K, k: SECCOMP_RET_ERRNO | EPERM },
    { label: 'enosys', code: BPF_RET_K, k: SECCOMP_RET_ERRNO | ENOSYS },
    { label: 'kill', code: BPF_RET_K, k: SECCOMP_RET_KILL_PROCESS },
  ];
  const at = new Map<Label, number>();
  ops.forEach((op, i) => {
    if (op.label !== undefined) at.set(op.label, i);
  });
  const offset = (jump: Jump | undefined, pc: number): number => {
    if (jump === undefined || typeof jump === 'number') return jump ?? 0;
    const target = at.get(jump);
    const distance = target === undefined ? -1 : target - pc - 1;
    // Conditional jumps are forward and 8-bit: a table too long for them must not compile.
    if (distance < 0 || distance > 255) throw new Error(`seccompProgram: cannot reach ${jump}`);
    return distance;
  };
  const program = Buffer.alloc(ops.length * 8);
  ops.forEach((op, pc) => {
    const base = pc * 8;
    program.writeUInt16LE(op.code, base);
    program.writeUInt8(offset(op.jt, pc), base + 2);
    program.writeUInt8(offset(op.jf, pc), base + 3);
    program.writeUInt32LE(op.k >>> 0, base + 4);
  });
  return program;
}
