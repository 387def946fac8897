#!/usr/bin/env python3
"""Write rdscope's binary .rdt format from Ocelot .trc files, following the
layout documented in src/trace_rdt.h (independently of rdscope's writer).

Usage: tests/gen/rdt.py OUT.rdt A.trc [B.trc ...]   one kernel per .trc
       tests/gen/rdt.py --bad DIR                  the malformed fixtures
"""
import os
import struct
import sys

MAGIC = b"\x89RDT\r\n\x1a\n"


def read_trc(path):
    loads, stores = {}, 0
    with open(path) as f:
        dims = tuple(int(x) for x in f.readline().split()[1:4])
        for line in f:
            p = line.split()
            if not p or p[0].startswith("#"):
                continue
            gid, d, addr, nbytes = (int(x) for x in p)
            if d:
                stores += 1
            else:
                loads.setdefault(gid, []).append((addr, nbytes))
    name = os.path.basename(path)[:-4]
    return name, dims, loads, stores


def rdt(kernels):
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
        table.append([name.encode(), dims, nthreads, n, stores, off])
    for e in table:
        e.append(len(data))
        data += e[0]
    while len(data) % 8:
        data += b"\0"
    toff = len(data)
    for name, dims, nthreads, n, stores, off, noff in table:
        data += struct.pack("<QI3III QQQQ", noff, len(name), *dims, nthreads, 0, n, stores, off, 0)
    data[0:32] = MAGIC + struct.pack("<IIQQ", 1, len(table), toff, len(data))
    return bytes(data)


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
        return
    open(sys.argv[1], "wb").write(rdt([read_trc(p) for p in sys.argv[2:]]))


if __name__ == "__main__":
    main()
