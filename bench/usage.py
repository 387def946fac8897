#!/usr/bin/env python3
"""One bench row: run a command RUNS times; print a Markdown row of its
median wall time, CPU time (user + system, its threads included), CPU /
wall, ns per access and peak RSS.
Usage: bench/usage.py RUNS ACCESSES LABEL TARGET COMMAND..."""
import resource
import subprocess
import sys
import time


def one(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss  # (maxrss: the largest child so far, KiB)


def main():
    runs, n, label, target, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
    res = sorted((one(cmd) for _ in range(runs)), key=lambda r: r[0])
    wall, cpu, _ = res[len(res) // 2]
    rss = max(r[2] for r in res)
    print("| %s | %s | %.3f | %.3f | %.2f | %.1f | %.0f |"
          % (label, target, wall, cpu, cpu / wall if wall else 0, wall / n * 1e9, rss / 1024))


main()
