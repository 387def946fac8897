#!/bin/sh
# The L1 geometry probe (pointer chase) against the model: rdscope validate
# under -p hopper-h100 on samples/measured/h100/pchase/pchase-ncu.csv (Nsight
# Compute, measured on an H200 -- Hopper GH100 like the H100, 256 KB L1/shared
# array per SM; see samples/measured/h100/pchase/README.md), with
# samples/measured/h100/pchase.kdesc: chase_small under -s l1.carveout=233472
# (carve-out 100: 28 KB of L1), chase_big under -s l1.carveout=16384
# (carve-out 0: 240 KB, the size ncu printed for carve-out 0 on the H100).
# Prints, as markdown, per group (A: strides at the small L1, B: the capacity
# cliff at the small L1, B': the cliff at the big L1, C: strides at the big
# L1) the mean absolute error of the L1 load hit rate in points and the worst
# launches, for the preset as is and for each alternative below.
# Usage: bench/h100-pchase.sh [RDSCOPE [KEY=VALUE...]]
#   with KEY=VALUEs: only that configuration (the settings come before the
#   carve-out, so l1.ways=1536 keeps one set at every carve-out).
# Needs no GPU: it reads the committed CSV.
set -eu
R=${1:-build/rdscope}
[ $# -gt 0 ] && shift
H=samples/measured/h100
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# group,kernel,model %,measured %,|error| points -- one line per launch, in
# launch order (validate keeps the description's order: chase_small's first
# 60 launches are group A, the other 11 B; chase_big's first 10 B', the other
# 24 C)
rows() { # SETTINGS...
	s=""
	for kv in "$@"; do s="$s -s $kv"; done
	# shellcheck disable=SC2086
	"$R" validate -f csv -p hopper-h100 $s -s l1.carveout=233472 --kernel chase_small \
		--measured "$H/pchase/pchase-ncu.csv" "$H/pchase.kdesc" 2>/dev/null >"$tmp/small"
	# shellcheck disable=SC2086
	"$R" validate -f csv -p hopper-h100 $s -s l1.carveout=16384 --kernel chase_big \
		--measured "$H/pchase/pchase-ncu.csv" "$H/pchase.kdesc" 2>/dev/null >"$tmp/big"
	for f in small big; do
		sed 1d "$tmp/$f" | sed 's/"\([^",]*\),\([^"]*\)"/\1;\2/' |
			awk -F, -v f=$f '{ n++; g = f == "small" ? (n <= 60 ? "A" : "B") : (n <= 10 ? "B'"'"'" : "C")
				e = $3 - $4; if (e < 0) e = -e
				sub(/;/, ",", $2); printf "%s %s %.2f %.2f %.2f\n", g, $2, 100 * $3, 100 * $4, 100 * e }'
	done
}

table() { # TITLE SETTINGS...
	title=$1; shift
	rows "$@" >"$tmp/rows"
	n=$(wc -l <"$tmp/rows")
	[ "$n" -eq 105 ] || { echo "$title: $n launches compared, not 105 (is $R built?)" >&2; exit 1; }
	echo "**$title**"
	echo
	echo "| group | launches | MAE (points) | worst launches (model / measured %) |"
	echo "|---|---:|---:|---|"
	for g in A B "B'" C; do
		awk -v g="$g" '$1 == g { s += $5; n++ } END { printf "| %s | %d | %.2f | ", g, n, s / n }' "$tmp/rows"
		awk -v g="$g" '$1 == g' "$tmp/rows" | sort -k5,5gr -k2,2 | head -n 3 |
			awk '$5 > 0.005 { printf "%s%s %s / %s", sep, $2, $3, $4; sep = "; " } END { if (!sep) printf "none off"; print " |" }'
	done
	awk '{ s += $5; n++ } END { printf "| all | %d | %.2f | |\n", n, s / n }' "$tmp/rows"
	echo
}

echo "Pointer chase on the L1 (one thread, N lines S bytes apart, 16 rounds):"
echo "ncu's load sector hit rate against the model's, -p hopper-h100."
echo
if [ $# -gt 0 ]; then
	table "-s $*" "$@"
else
	table "preset as is (32 sets, xor, LRU)"
	table "fully associative, LRU (-s l1.ways=1536: one set at every carve-out)" l1.ways=1536
	table "4 sets, prime (3 used), random (-s l1.ways=384 -s l1.hash=prime -s l1.replacement=random)" \
		l1.ways=384 l1.hash=prime l1.replacement=random
fi
