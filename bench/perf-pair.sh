#!/bin/sh
# bench/perf-pair.sh: two rdscope builds compared per thread on one of
# bench/streams.py's streams, as plain LRU (bench/lru_stream.sh's flags,
# -j 2), by `perf record` (cpu-clock at 1999 Hz), the builds alternating.
# Not part of `make bench` (it needs perf). Samples count only while a
# thread runs, so on a shared machine these figures move less than wall
# times: issue 42's evidence for changes to case 0.
# Usage: bench/perf-pair.sh OLD NEW [KIND [N [RUNS]]]
#   KIND lru, mixed8 or rand64 (default rand64), N accesses (default
#   10000000), RUNS pairs (default 3).
# Prints per run and build the ns per access of case 0 (the main thread's
# model: the as-configured case, exact distances), of the other cases
# (the workers' model: the fully associative case), of the coalescing
# (both threads) and of the whole process.
set -eu
[ $# -ge 2 ] || { echo "usage: bench/perf-pair.sh OLD NEW [KIND [N [RUNS]]]" >&2; exit 2; }
OLD=$1
NEW=$2
K=${3:-rand64}
N=${4:-10000000}
RUNS=${5:-3}
command -v perf >/dev/null || { echo "bench/perf-pair.sh: no perf" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/lru_stream.sh
. "$(dirname "$0")/lru_stream.sh"
python3 "$(dirname "$0")/streams.py" "$K" "$N" "$tmp/s" trc
"$OLD" convert -q "$tmp/s.trc" "$tmp/s.rdt"
rm -f "$tmp/s.trc"
one() {
	# shellcheck disable=SC2086
	perf record -q -o "$tmp/p.data" -F 1999 "$1" run -q --no-timing -j 2 $LRU_FLAGS "$tmp/s.rdt" >/dev/null 2>"$tmp/p.err"
	# (the main thread's id is the process's, the lowest)
	perf report -i "$tmp/p.data" --no-children --stdio -n --sort pid,sym 2>/dev/null |
		awk -v n="$N" '/^#/ || !/%/ { next }
			{ split($3, a, ":"); t = a[1] + 0; if (main == "" || t < main) main = t
			  s[t " " $5] += $2; all += $2 }
			END { for (k in s) { split(k, b, " ")
				if (b[2] ~ /^sim_paper_core/) { if (b[1] == main) c0 += s[k]; else w += s[k] }
				else if (b[2] ~ /^coal_/) co += s[k] }
			  f = 1e9 / 1999 / n
			  printf "case 0 %6.1f  other cases %6.1f  coalescing %6.1f  process %6.1f\n", c0 * f, w * f, co * f, all * f }'
}
echo "## perf-pair: $K, $N accesses, plain LRU, -j 2, ns per access of CPU ($(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg))"
for i in $(seq "$RUNS"); do
	echo "run $i old: $(one "$OLD")"
	echo "run $i new: $(one "$NEW")"
done
