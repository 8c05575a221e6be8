import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BPF_JEQ_K,
  BPF_JGE_K,
  BPF_JSET_K,
  BPF_LD_W_ABS,
  BPF_RET_K,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_ERRNO,
  SECCOMP_RET_KILL_PROCESS,
  cloneNamespaceFlags,
  deniedSyscalls,
  seccompProgram,
  type SeccompArch,
} from './seccomp-filter';

/** Runs the program over one seccomp_data, as the kernel's classic-BPF interpreter would. */
function evaluate(program: Buffer, data: { nr: number; arch: number; arg0?: number }): number {
  const word = (offset: number): number => {
    if (offset === 0) return data.nr >>> 0;
    if (offset === 4) return data.arch >>> 0;
    if (offset === 16) return (data.arg0 ?? 0) >>> 0;
    throw new Error(`unexpected load at ${offset}`);
  };
  let acc = 0;
  for (let pc = 0; pc * 8 < program.length;) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case BPF_LD_W_ABS:
        acc = word(k);
        pc += 1;
        break;
      case BPF_JEQ_K:
        pc += 1 + (acc === k ? jt : jf);
        break;
      case BPF_JGE_K:
        pc += 1 + (acc >= k ? jt : jf);
        break;
      case BPF_JSET_K:
        pc += 1 + ((acc & k) !== 0 ? jt : jf);
        break;
      case BPF_RET_K:
        return k;
      default:
        throw new Error(`unexpected opcode ${code}`);
    }
  }
  throw new Error('the program fell off its end');
}

const arches: [SeccompArch, number][] = [
  ['x64', 0xc000003e],
  ['arm64', 0xc00000b7],
];

describe.each(arches)('seccompProgram(%s)', (arch, auditArch) => {
  const program = seccompProgram(arch);
  const run = (nr: number, arg0 = 0): number => evaluate(program, { nr, arch: auditArch, arg0 });
  const nrOf = (name: string): number => {
    const found = deniedSyscalls(arch).find((s) => s.name === name);
    if (found === undefined) throw new Error(`${name} is not denied on ${arch}`);
    return found.nr;
  };
  const clone = arch === 'x64' ? 56 : 220;

  it('answers every denied call with EPERM', () => {
    for (const { nr } of deniedSyscalls(arch)) expect(run(nr)).toBe(SECCOMP_RET_ERRNO | 1);
    for (const name of ['mount', 'unshare', 'setns', 'bpf', 'keyctl', 'kexec_load', 'umount2']) {
      expect(run(nrOf(name))).toBe(SECCOMP_RET_ERRNO | 1);
    }
  });

  it('allows ordinary calls (read, write, openat, execve, ptrace of its own processes)', () => {
    const ordinary =
      arch === 'x64' ? [0, 1, 257, 59, 101, 231, 61] : [63, 64, 56, 221, 117, 94, 260];
    for (const nr of ordinary) expect(run(nr)).toBe(SECCOMP_RET_ALLOW);
  });

  it('allows clone for threads and processes, refuses it with any new namespace, and sends clone3 to ENOSYS', () => {
    const thread = 0x003d0f00; // CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|…
    expect(run(clone, thread)).toBe(SECCOMP_RET_ALLOW);
    expect(run(clone, 0x11)).toBe(SECCOMP_RET_ALLOW); // fork(): SIGCHLD
    for (const flag of [0x10000000, 0x00020000, 0x20000000, 0x40000000, 0x00000080]) {
      expect(flag & cloneNamespaceFlags).toBe(flag);
      expect(run(clone, 0x11 | flag)).toBe(SECCOMP_RET_ERRNO | 1);
    }
    expect(run(435)).toBe(SECCOMP_RET_ERRNO | 38);
  });

  it('kills a call made for another architecture', () => {
    expect(evaluate(program, { nr: 0, arch: 0x40000003 })).toBe(SECCOMP_RET_KILL_PROCESS); // i386
  });
});

it('kills x32-ABI calls on x86_64, whose numbers the table does not name', () => {
  const program = seccompProgram('x64');
  expect(evaluate(program, { nr: 0x40000000 | 165, arch: 0xc000003e })).toBe(
    SECCOMP_RET_KILL_PROCESS,
  );
});

// The kernel's own numbering, where the machine has its headers: a typo in the table would
// otherwise deny the wrong call and allow the one it meant.
const header = (() => {
  try {
    return readFileSync('/usr/include/x86_64-linux-gnu/asm/unistd_64.h', 'utf8');
  } catch {
    return null;
  }
})();

it.skipIf(header === null)('names x86_64 calls by the numbers in asm/unistd_64.h', () => {
  for (const { name, nr } of deniedSyscalls('x64')) {
    const match = new RegExp(`#define __NR_${name}\\s+(\\d+)`).exec(header ?? '');
    expect(match?.[1], name).toBe(String(nr));
  }
});
