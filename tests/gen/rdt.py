#!/usr/bin/env python3
"""Write rdscope's binary .rdt format from Ocelot .trc files, following the
layout documented in src/readers/trace_rdt.h (independently of rdscope's writer).

Usage: tests/gen/rdt.py [-vN] OUT.rdt A.trc [B.trc ...]   one kernel per .trc,
                                        format version N (1, 2 or 3; 1 unless
                                        given): version 3 keeps the stores,
                                        1 and 2 only count them
       tests/gen/rdt.py --bad DIR        the malformed fixtures
       tests/gen/rdt.py --fuzz-seed OUT  the .rdt fuzz corpus's version-3 seed
"""
import os
import struct
import sys

MAGIC = b"\x89RDT\r\n\x1a\n"


def parse_trc(name, lines):
    """A kernel: name, block dims, per thread its loads (addr, bytes) and
    its stores (place among the thread's accesses, addr, bytes)."""
    loads, stores = {}, {}
    dims = tuple(int(x) for x in lines[0].split()[1:4])
    n = {}
    for line in lines[1:]:
        p = line.split()
        if not p or p[0].startswith("#"):
            continue
        gid, d, addr, nbytes = (int(x) for x in p)
        if d:
            stores.setdefault(gid, []).append((n.get(gid, 0), addr, nbytes))
        else:
            loads.setdefault(gid, []).append((addr, nbytes))
        n[gid] = n.get(gid, 0) + 1
    return name, dims, loads, stores


def read_trc(path):
    with open(path) as f:
        return parse_trc(os.path.basename(path)[:-4], f.read().splitlines())


def rdt(kernels, version=1):
    data = bytearray(b"\0" * 32)
    table = []
    for name, dims, loads, stores in kernels:
        while len(data) % 8:
            data += b"\0"
        nthreads = max(loads) + 1 if loads else 0
        first, addrs, sizes, n = [], [], [], 0
        for t in range(nthreads):
            first.append(n)
            for a, b in loads.get(t, []):
                addrs.append(a)
                sizes.append(b)
                n += 1
        first.append(n)
        off = len(data)
        data += struct.pack("<%dQ" % len(first), *first)
        data += struct.pack("<%dQ" % len(addrs), *addrs)
        data += struct.pack("<%dH" % len(sizes), *sizes)
        nstores = sum(len(v) for v in stores.values())
        soff, sthreads = 0, 0
        if version >= 3 and nstores:
            while len(data) % 8:
                data += b"\0"
            soff, sthreads = len(data), max(stores) + 1
            # sorted by thread id, each thread's in program order
            tids, addrs, pos, sizes = [], [], [], []
            for t in sorted(stores):
                for p, a, b in stores[t]:
                    tids.append(t)
                    pos.append(p)
                    addrs.append(a)
                    sizes.append(b)
            m = len(tids)
            data += struct.pack("<%dQ" % m, *addrs)
            data += struct.pack("<%dI" % m, *tids)
            data += struct.pack("<%dI" % m, *pos)
            data += struct.pack("<%dH" % m, *sizes)
        table.append([name.encode(), dims, nthreads, n, nstores, off, soff, sthreads])
    for e in table:
        e.append(len(data))
        data += e[0]
    while len(data) % 8:
        data += b"\0"
    toff = len(data)
    for name, dims, nthreads, n, nstores, off, soff, sthreads, noff in table:
        data += struct.pack("<QI3III QQQQ", noff, len(name), *dims, nthreads, 0, n, nstores, off, 0)
        if version >= 3:
            data += struct.pack("<QII", soff, sthreads, 0)
    data[0:32] = MAGIC + struct.pack("<IIQQ", version, len(table), toff, len(data))
    return bytes(data)


# A kernel for the damaged version-3 fixtures: thread 0 loads, stores,
# loads; thread 1 only loads; thread 3 (no loads) stores twice.
STORES_TRC = """blocksize: 4 1 1
0 0 0 4
0 1 64 4
1 0 128 4
3 1 256 8
0 0 4 4
3 1 264 8""".splitlines()


def main():
    if sys.argv[1] == "--bad":
        d = sys.argv[2]
        k = [read_trc(os.path.join(os.path.dirname(__file__), "../../samples/paper/table2.trc"))]
        good = rdt(k)
        open(os.path.join(d, "rdt-truncated.rdt"), "wb").write(good[:-10])
        bad = bytearray(good)
        bad[0] = 0x88
        open(os.path.join(d, "rdt-bad-magic.rdt"), "wb").write(bad)
        bad = bytearray(good)
        bad[8] = 9
        open(os.path.join(d, "rdt-version.rdt"), "wb").write(bad)
        # thread_first of table2 (4 threads, 2 loads each) is 0 2 4 6 8: make it 0 2 1 6 8
        bad = bytearray(good)
        struct.pack_into("<Q", bad, 32 + 16, 1)
        open(os.path.join(d, "rdt-thread-first-decreasing.rdt"), "wb").write(bad)
        # the table's data offset of kernel 0 pointed past the end
        bad = bytearray(good)
        toff = struct.unpack_from("<Q", bad, 16)[0]
        struct.pack_into("<Q", bad, toff + 48, len(bad) + 8)
        open(os.path.join(d, "rdt-data-outside.rdt"), "wb").write(bad)
        # version 3: the stores section of "stores" (2 load threads, 4 store
        # threads, 3 stores) is store_addr 64 256 264 (at s), store_tid
        # 0 3 3 (s + 24), store_pos 1 0 1 (s + 36), store_bytes 4 8 8
        # (s + 48)
        good = rdt([parse_trc("stores", STORES_TRC)], 3)
        toff = struct.unpack_from("<Q", good, 16)[0]
        s = struct.unpack_from("<Q", good, toff + 64)[0]

        def v3(fname, fmt, at, *v):
            bad = bytearray(good)
            struct.pack_into(fmt, bad, at, *v)
            open(os.path.join(d, fname), "wb").write(bad)
        v3("rdt-v3-stores-outside.rdt", "<Q", toff + 64, len(good) - 16)
        v3("rdt-v3-store-tid-decreasing.rdt", "<I", s + 32, 1)  # 0 3 1
        v3("rdt-v3-store-tid-beyond.rdt", "<I", s + 32, 4)  # 0 3 4, 4 store threads
        v3("rdt-v3-last-store-thread.rdt", "<II", s + 28, 2, 2)  # 0 2 2: thread 3 none
        v3("rdt-v3-store-bytes-zero.rdt", "<H", s + 50, 0)
        v3("rdt-v3-store-pos-beyond-loads.rdt", "<I", s + 36, 3)  # thread 0 has 2 loads
        v3("rdt-v3-store-pos-falls.rdt", "<I", s + 44, 0)  # thread 3: 0 0
        v3("rdt-v3-store-threads.rdt", "<I", toff + 72, 0)
        v3("rdt-v3-store-threads-max.rdt", "<I", toff + 72, (1 << 26) + 1)
        return
    if sys.argv[1] == "--fuzz-seed":
        # tests/fuzz/corpus/rdt/rdt-v3-stores.rdt: the kernel above and
        # tiny_00 (stores interleaved with loads)
        here = os.path.dirname(__file__)
        k = [parse_trc("stores", STORES_TRC),
             read_trc(os.path.join(here, "../../samples/traces/tiny-ocelot/tiny_00.trc"))]
        open(sys.argv[2], "wb").write(rdt(k, 3))
        return
    version = 1
    if sys.argv[1].startswith("-v"):
        version = int(sys.argv.pop(1)[2:])
    open(sys.argv[1], "wb").write(rdt([read_trc(p) for p in sys.argv[2:]], version))


if __name__ == "__main__":
    main()
