#!/usr/bin/env python3
"""bench/streams.py: the bench's one-thread load streams (issue 42), seeded.

Usage: python3 bench/streams.py KIND N PREFIX [trc]

Writes N 4-byte loads of one thread as PREFIX.trc (an Ocelot text trace:
"blocksize: 1 1 1", then "0 0 ADDRESS 4" a load; rdscope reads it, and so
does the 2013 code), PREFIX.din (Dinero IV's binary records, -informat b:
4-byte little-endian address, 2-byte size 4, 1-byte type 0 = read, one byte
of padding) and PREFIX.q (the addresses as native int64, for pycachesim);
with "trc" after PREFIX, only PREFIX.trc.

KIND (every footprint word-aligned, from address 0):
  lru     issue 23's stream, as bench/lru_stream.sh's lru_stream writes it
          (70 % sequential over 1 MiB, 30 % random words over 16 KiB);
          it is taken from that awk script so that it stays the same bytes
  mixed8  an 8 MiB mixed stream (seed 42): a hot set of 2,000 words drawn
          at random over 8 MiB (about 42 % of the loads), random words
          over 8 MiB (about 28 %) and sweeps of 8 to 200 consecutive words
          from a random word (about 29 %)
  rand64  uniformly random words over 64 MiB (seed 64)

Python's random.random() is the same sequence for a given integer seed
on every CPython since 3.2, so the streams are the same bytes everywhere.
"""
import array
import os
import random
import subprocess
import sys

WORD = 4


def mixed8(n):
    rng = random.Random(42)
    r = rng.random
    words = (8 << 20) // WORD
    hot = [int(r() * words) for _ in range(2000)]
    a = array.array("I")
    app = a.append
    while len(a) < n:
        x = r()
        if x < 0.6:
            app(hot[int(r() * 2000)] * WORD)
        elif x < 0.996:
            app(int(r() * words) * WORD)
        else:
            s = int(r() * words)
            ln = 8 + int(r() * 193)
            for k in range(min(ln, n - len(a))):
                app(((s + k) % words) * WORD)
    return a


def rand64(n):
    rng = random.Random(64)
    r = rng.random
    words = (64 << 20) // WORD
    return array.array("I", (int(r() * words) * WORD for _ in range(n)))


def lru(n):
    here = os.path.dirname(os.path.abspath(__file__))
    sh = ". '%s/lru_stream.sh' && lru_stream %d" % (here, n)
    p = subprocess.Popen(["sh", "-c", sh], stdout=subprocess.PIPE)
    next(p.stdout)
    a = array.array("I", (int(line.split()[2]) for line in p.stdout))
    if p.wait() != 0:
        sys.exit("bench/streams.py: lru_stream failed")
    return a


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("lru", "mixed8", "rand64") or \
            sys.argv[4:] not in ([], ["trc"]):
        sys.exit("usage: python3 bench/streams.py lru|mixed8|rand64 N PREFIX [trc]")
    kind, n, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    a = globals()[kind](n)
    assert len(a) == n
    with open(prefix + ".trc", "w") as f:
        f.write("blocksize: 1 1 1\n")
        step = 1 << 20
        for i in range(0, n, step):
            f.write("".join("0 0 %d 4\n" % x for x in a[i:i + step]))
    if sys.argv[4:]:
        return
    if sys.byteorder != "little":
        a.byteswap()
    b = a.tobytes()
    rec = bytearray(8 * n)
    for k in range(4):
        rec[k::8] = b[k::4]
    rec[4::8] = b"\x04" * n
    with open(prefix + ".din", "wb") as f:
        f.write(rec)
    if sys.byteorder != "little":
        a.byteswap()
    with open(prefix + ".q", "wb") as f:
        array.array("q", a).tofile(f)


if __name__ == "__main__":
    main()
