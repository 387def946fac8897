#!/usr/bin/env python3
"""Write the tiny two-kernel sample in every trace format rdscope reads.

The kernels are defined here in plain Python (not by rdscope), and each
format is written the way its tool writes it: Ocelot's tracer (one .trc
per kernel, gid dir addr bytes), NVBit mem_trace (current and pre-1.5
lines, 32 addresses per warp instruction, inactive lanes 0x0), Accel-Sim's
post-processed .traceg (all three address modes). tests/e2e/formats.sh
checks that rdscope gives the same results for all of them and for the
kernel description samples/traces/tiny.kdesc.

Usage: tests/gen/tiny.py OUTDIR    (writes into OUTDIR/)
"""
import os
import sys

A, C, D, T = 0x10000000, 0x20000000, 0x30000000, 0x40000000


def copy2d():
    """grid 2x1x1, block 32x2x1; x = blockIdx.x*32 + tx, y = ty."""
    acc = {}  # (cta, tid_in_block) -> [(kind, addr, bytes)]
    for bx in range(2):
        for ty in range(2):
            for tx in range(32):
                x, y = bx * 32 + tx, ty
                ops = []
                if x + y * 64 < 120:
                    ops.append(("ld", A + (y * 64 + x) * 4, 4))   # A[y][x], A is 2x64
                    ops.append(("ld", C + (x * 2 + y) * 8, 8))    # C[x][y], C is 64x2 of 8 B
                    ops.append(("st", D + (y * 64 + x) * 4, 4))   # D[y][x]
                acc[((bx, 0, 0), tx + 32 * ty)] = ops
    return dict(name="copy2d", grid=(2, 1, 1), block=(32, 2, 1), acc=acc,
                ops=[("LDG.E", 4), ("LDG.E.64", 8), ("STG.E", 4)])


def gather():
    """grid 1, block 32: a divergent gather and a broadcast-like load."""
    acc = {}
    for i in range(32):
        ops = []
        if i % 3 != 1:
            ops.append(("ld", T + ((i * 7) % 16) * 4, 4))         # T[(i*7)%16]
        else:
            ops.append(None)                                       # lane inactive
        ops.append(("ld", T + (i // 4) * 4, 4))                    # T[i/4]
        acc[((0, 0, 0), i)] = ops
    return dict(name="gather", grid=(1, 1, 1), block=(32, 1, 1), acc=acc,
                ops=[("LDG.E", 4), ("LDG.E", 4)])


KERNELS = [copy2d(), gather()]


def bsize(k):
    return k["block"][0] * k["block"][1] * k["block"][2]


def flat_cta(k, c):
    g = k["grid"]
    return c[0] + g[0] * (c[1] + g[1] * c[2])


def ctas(k):
    return sorted({c for (c, _) in k["acc"]}, key=lambda c: flat_cta(k, c))


def warp_instrs(k, c, w):
    """Per instruction of warp w of CTA c: (opcode, bytes, 32 addresses or 0)."""
    out = []
    for n, (op, nbytes) in enumerate(k["ops"]):
        addrs = []
        for lane in range(32):
            t = w * 32 + lane
            ops = k["acc"].get((c, t))
            a = 0
            if ops:
                real = [o for o in ops]
                if n < len(real) and real[n] is not None:
                    a = real[n][1]
            addrs.append(a)
        if any(addrs):
            out.append((op, nbytes, addrs))
    return out


def write_ocelot(k, path):
    with open(path, "w") as f:
        f.write("blocksize: %d %d %d\n" % k["block"])
        for c in ctas(k):
            for t in range(bsize(k)):
                for o in k["acc"].get((c, t), []):
                    if o is None:
                        continue
                    gid = flat_cta(k, c) * bsize(k) + t
                    f.write("%d %d %d %d\n" % (gid, o[0] == "st", o[1], o[2]))


def write_nvbit(path, old):
    with open(path, "w") as f:
        f.write("------------- NVBit (NVidia Binary Instrumentation Tool) Loaded --------------\n")
        f.write("hello from the traced program\n")
        for gid, k in enumerate(KERNELS):
            if old:
                f.write("Kernel %s - grid size %d,%d,%d - block size %d,%d,%d - nregs 16 - "
                        "shmem 0 - cuda stream id 0\n" % ((k["name"] + "(float*, int)",) +
                                                          k["grid"] + k["block"]))
            else:
                f.write("MEMTRACE: CTX 0x00005581b6f6d4a0 - LAUNCH - Kernel pc 0x00007f1c9c6e8e00"
                        " - Kernel name %s - grid launch id %d - grid size %d,%d,%d - block "
                        "size %d,%d,%d - nregs 16 - shmem 0 - cuda stream id 0\n"
                        % ((k["name"] + "(float*, int)", gid) + k["grid"] + k["block"]))
            nw = (bsize(k) + 31) // 32
            lines = []
            for c in ctas(k):
                for w in range(nw):
                    # new format: SM warp slots (4 + 2 * CTA + w), read as slot mod nw
                    slot = w if old else 4 + 2 * flat_cta(k, c) + w
                    for (op, _, addrs) in warp_instrs(k, c, w):
                        body = "CTA %d,%d,%d - warp %d - %s - " % (c + (slot, op))
                        body += "".join("0x%016x " % a for a in addrs)
                        if old:
                            lines.append(body)
                        else:
                            lines.append("MEMTRACE: CTX 0x00005581b6f6d4a0 - grid_launch_id "
                                         "%d - " % gid + body)
            # warps interleave: keep each warp's order, alternate between warps
            by_warp = {}
            for l in lines:
                key = l[l.index("CTA"):l.index(" - ", l.index("- warp") + 3)]
                by_warp.setdefault(key, []).append(l)
            queues = list(by_warp.values())
            while any(queues):
                for q in queues:
                    if q:
                        f.write(q.pop(0) + "\n")
            # a shared-memory access, which is not L1 traffic
            if not old:
                f.write("MEMTRACE: CTX 0x00005581b6f6d4a0 - grid_launch_id %d - CTA 0,0,0 - "
                        "warp 4 - STS - " % gid + "0x0000000000000010 " * 32 + "\n")
        f.write("program done\n")


def traceg_addrs(mode, addrs, mask):
    act = [addrs[l] for l in range(32) if mask >> l & 1]
    if mode == 0:
        return "0 " + " ".join("0x%016x" % a for a in act)
    if mode == 1:
        return "1 0x%x %d" % (act[0], act[1] - act[0])
    deltas = [act[i] - act[i - 1] for i in range(1, len(act))]
    return "2 0x%x %s" % (act[0], " ".join(str(d) for d in deltas))


def pick_mode(n, addrs, mask):
    act = [addrs[l] for l in range(32) if mask >> l & 1]
    lanes = [l for l in range(32) if mask >> l & 1]
    contiguous = lanes == list(range(lanes[0], lanes[0] + len(lanes)))
    strided = len(act) > 1 and all(act[i] - act[i - 1] == act[1] - act[0]
                                   for i in range(1, len(act)))
    if n % 3 == 2:
        return 0  # some instructions listed in full, as with TOOL_COMPRESS=0
    if contiguous and strided:
        return 1
    return 2


def write_accelsim(dirpath):
    os.makedirs(dirpath, exist_ok=True)
    with open(os.path.join(dirpath, "kernelslist.g"), "w") as kl:
        kl.write("MemcpyHtoD,0x00007f0e60000000,512\n")
        for kid, k in enumerate(KERNELS, 1):
            name = "kernel-%d.traceg" % kid
            kl.write(name + "\n")
            nw = (bsize(k) + 31) // 32
            with open(os.path.join(dirpath, name), "w") as f:
                f.write("-kernel name = _Z%d%sPfi\n" % (len(k["name"]), k["name"]))
                f.write("-kernel id = %d\n" % kid)
                f.write("-grid dim = (%d,%d,%d)\n" % k["grid"])
                f.write("-block dim = (%d,%d,%d)\n" % k["block"])
                f.write("-shmem = 0\n-nregs = 16\n-binary version = 80\n-cuda stream id = 0\n")
                f.write("-shmem base_addr = 0x00007f0e8e000000\n")
                f.write("-local mem base_addr = 0x00007f0e8c000000\n")
                f.write("-nvbit version = 1.7.4\n-accelsim tracer version = 5\n"
                        "-enable lineinfo = 0\n\n")
                f.write("#traces format = [line_num] PC mask dest_num [reg_dests] opcode "
                        "src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] "
                        "immediate\n\n")
                n = 0
                for c in ctas(k):
                    f.write("#BEGIN_TB\n\nthread block = %d,%d,%d\n" % c)
                    for w in range(nw):
                        lines = ["0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0",
                                 "0010 ffffffff 1 R2 S2R 0 0 0"]
                        for (op, nbytes, addrs) in warp_instrs(k, c, w):
                            mask = sum(1 << l for l in range(32) if addrs[l])
                            mode = pick_mode(n, addrs, mask)
                            n += 1
                            if op.startswith("ST"):
                                lines.append("%04x %08x 0 %s 2 R4 R6 %d %s 0" % (
                                    0x90 + 16 * len(lines), mask, op, nbytes,
                                    traceg_addrs(mode, addrs, mask)))
                            else:
                                lines.append("%04x %08x 1 R8 %s 1 R4 %d %s 0" % (
                                    0x90 + 16 * len(lines), mask, op, nbytes,
                                    traceg_addrs(mode, addrs, mask)))
                        # a shared-memory load through a generic address: skipped
                        lines.append("0200 ffffffff 1 R9 LD.E 1 R4 4 1 0x7f0e8e000100 4 0")
                        lines.append("0210 ffffffff 0 EXIT 0 0 0")
                        f.write("\nwarp = %d\ninsts = %d\n" % (w, len(lines)))
                        f.write("\n".join(lines) + "\n")
                    f.write("\n#END_TB\n")


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "tiny-ocelot"), exist_ok=True)
    for i, k in enumerate(KERNELS):
        write_ocelot(k, os.path.join(out, "tiny-ocelot", "tiny_%02d.trc" % i))
    write_nvbit(os.path.join(out, "tiny-nvbit.nvbit"), old=False)
    write_nvbit(os.path.join(out, "tiny-nvbit-old.nvbit"), old=True)
    write_accelsim(os.path.join(out, "tiny-accelsim"))


if __name__ == "__main__":
    main()
