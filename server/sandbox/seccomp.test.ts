// The user-namespace seccomp filter as bytes: classic BPF, 8 bytes per instruction, as bwrap's --seccomp reads
// it. That the kernel enforces it is checked in seccomp.int.test.ts.
import { describe, expect, it } from "vitest";
import { userNamespaceFilter } from "./seccomp";

type Insn = { code: number; jt: number; jf: number; k: number };

function decode(buf: Buffer): Insn[] {
  return Array.from({ length: buf.length / 8 }, (_, i) => ({
    code: buf.readUInt16LE(i * 8),
    jt: buf.readUInt8(i * 8 + 2),
    jf: buf.readUInt8(i * 8 + 3),
    k: buf.readUInt32LE(i * 8 + 4),
  }));
}

const LD_W_ABS = 0x20;
const RET_K = 0x06;
const JSET_K = 0x45;
const CLONE_NEWUSER = 0x10000000;
const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;

describe("userNamespaceFilter", () => {
  it.each(["x64", "arm64"] as const)("%s: whole 8-byte instructions, starting with a load of the arch field", (arch) => {
    const buf = userNamespaceFilter(arch);
    expect(buf).not.toBeNull();
    expect(buf!.length % 8).toBe(0);
    const prog = decode(buf!);
    expect(buf!.length).toBe(8 * prog.length);
    // seccomp_data: nr at offset 0, arch at offset 4.
    expect(prog[0]).toEqual({ code: LD_W_ABS, jt: 0, jf: 0, k: 4 });
    expect(prog[1]!.k).toBe(AUDIT_ARCH[arch]);
  });

  it("tests the clone / unshare flags for CLONE_NEWUSER and refuses with EPERM", () => {
    const prog = decode(userNamespaceFilter("x64")!);
    expect(prog.some((i) => i.code === JSET_K && i.k === CLONE_NEWUSER)).toBe(true);
    // Loads args[0] (offset 16) before the flag test.
    expect(prog.some((i) => i.code === LD_W_ABS && i.k === 16)).toBe(true);
    const rets = prog.filter((i) => i.code === RET_K).map((i) => i.k);
    expect(rets).toContain(0x7fff0000); // SECCOMP_RET_ALLOW
    expect(rets).toContain(0x00050000 | 1); // SECCOMP_RET_ERRNO | EPERM
    expect(rets).toContain(0x00050000 | 38); // clone3: ENOSYS, so libc falls back to clone
  });

  it("keeps every jump inside the program", () => {
    const prog = decode(userNamespaceFilter("x64")!);
    prog.forEach((insn, i) => {
      if ((insn.code & 0x07) !== 0x05) return; // BPF_JMP
      expect(i + 1 + insn.jt).toBeLessThan(prog.length);
      expect(i + 1 + insn.jf).toBeLessThan(prog.length);
    });
    expect(prog.at(-1)!.code).toBe(RET_K);
  });

  it("is null for an architecture without a syscall table here", () => {
    expect(userNamespaceFilter("riscv64")).toBeNull();
    expect(userNamespaceFilter("ia32")).toBeNull();
  });
});
