#!/bin/sh
# bench/perf-stream.sh: where rdscope's time per access goes on one of
# bench/streams.py's streams, as plain LRU (bench/lru_stream.sh's flags),
# by `perf record` (cpu-clock at 1999 Hz, no call graphs; the build needs
# -g, as the Makefile's default CFLAGS have). Not part of `make bench`
# (it needs perf); issue 42's evidence for the exact-distance case.
# Usage: bench/perf-stream.sh RDSCOPE [KIND [N [RUNS]]]
#   KIND lru, mixed8 or rand64 (default rand64), N accesses (default
#   10000000), RUNS profiles (default 3; each is printed).
# Prints, per run: samples and ns per access of each thread (the main
# thread runs case 0, the as-configured case with exact distances, and
# half of the coalescing; a worker the fully associative case; another
# the other half of the coalescing), then the top source lines of each.
set -eu
[ $# -ge 1 ] || { echo "usage: bench/perf-stream.sh RDSCOPE [KIND [N [RUNS]]]" >&2; exit 2; }
R=$1
K=${2:-rand64}
N=${3:-10000000}
RUNS=${4:-3}
command -v perf >/dev/null || { echo "bench/perf-stream.sh: no perf" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/lru_stream.sh
. "$(dirname "$0")/lru_stream.sh"
python3 "$(dirname "$0")/streams.py" "$K" "$N" "$tmp/s" trc
"$R" convert -q "$tmp/s.trc" "$tmp/s.rdt"
rm -f "$tmp/s.trc"
echo "## perf: $K, $N accesses, plain LRU, -j 2 ($(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg))"
for i in $(seq "$RUNS"); do
	# shellcheck disable=SC2086
	perf record -q -o "$tmp/p.data" -F 1999 "$R" run -q --no-timing -j 2 $LRU_FLAGS "$tmp/s.rdt" >/dev/null 2>"$tmp/p.err"
	echo
	echo "### run $i: samples by thread and function (ns per access = samples / 1999 Hz / N)"
	echo
	perf report -i "$tmp/p.data" --no-children --stdio -n --sort pid,sym 2>/dev/null |
		awk -v n="$N" '/^#/ || !/%/ { next } NR < 400 && $2 >= 20 { printf "    %-8s %6d samples %7.1f ns/access  %s %s\n", $1, $2, $2 / 1999 / n * 1e9, $3, $5 }'
	echo
	echo "top source lines (thread: line)"
	echo
	perf report -i "$tmp/p.data" --no-children --stdio -n --sort pid,srcline 2>/dev/null |
		awk '/^#/ || !/%/ { next } { print "    " $0 }' | head -n 14
done
