// A seccomp filter (classic BPF, as bwrap's --seccomp takes it) that refuses new user namespaces: code in the
// sandbox could otherwise make one, get every capability inside it, and mount an executable tmpfs past our
// noexec /tmp. Flatpak blocks CLONE_NEWUSER the same way. clone3 passes its flags in memory a filter cannot
// read, so it answers ENOSYS and the C library falls back to clone, whose flags are checked.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

const ALLOW = 0x7fff0000;
const ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const CLONE_NEWUSER = 0x10000000;

const ARCHES: Record<string, { audit: number; clone: number; unshare: number; clone3: number }> = {
  x64: { audit: 0xc000003e, clone: 56, unshare: 272, clone3: 435 },
  arm64: { audit: 0xc00000b7, clone: 220, unshare: 97, clone3: 435 },
};

type Insn = [code: number, jt: number, jf: number, k: number];

/** The filter for this machine's architecture, or null where we have no syscall table for it. */
export function userNamespaceFilter(arch: string = process.arch): Buffer | null {
  const a = ARCHES[arch];
  if (!a) return null;
  const prog: Insn[] = [
    [LD_W_ABS, 0, 0, 4], // 0: arch
    [JEQ_K, 1, 0, a.audit], // 1: native → 3
    [RET_K, 0, 0, ERRNO | EPERM], // 2: other ABIs (i386, x32) are refused outright
    [LD_W_ABS, 0, 0, 0], // 3: syscall number
    [JGE_K, 7, 0, 0x40000000], // 4: x32 numbering → 12
    [JEQ_K, 7, 0, a.clone3], // 5: clone3 → 13
    [JEQ_K, 2, 0, a.unshare], // 6: unshare → 9
    [JEQ_K, 1, 0, a.clone], // 7: clone → 9
    [RET_K, 0, 0, ALLOW], // 8
    [LD_W_ABS, 0, 0, 16], // 9: args[0], low 32 bits (the flags)
    [JSET_K, 1, 0, CLONE_NEWUSER], // 10: → 12
    [RET_K, 0, 0, ALLOW], // 11
    [RET_K, 0, 0, ERRNO | EPERM], // 12
    [RET_K, 0, 0, ERRNO | ENOSYS], // 13
  ];
  const buf = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return buf;
}
