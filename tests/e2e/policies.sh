#!/bin/sh
# Replacement policies (issue 17, l1.replacement): seed 001 Table 1 under
# each policy, the one-way and reference-profile rules, and the explorer's
# note that distances stay LRU's. Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"

# Seed 001 Table 1: A B C D A A D C in a fully associative cache, serial
# (no latency, no MSHR limit): K = 4 hits 4 of 8 (50 %) under every
# policy; K = 2 hits 2 (25 %) under LRU (the paper's), FIFO and LFU
# (derived by hand: man/rdscope-model.7, REPLACEMENT POLICIES); K = 1 hits 1 (the A A pair) under all.
serial="-s l1.line=64 -s l1.hash=mod -s latency.miss=0 -s latency.stddev=0 -s l1.mshrs=0 -s l1.mshr_per_warp=0"
hits() { # POLICY K
	# shellcheck disable=SC2086
	"$RDSCOPE" run -q -f csv --no-timing $serial -s l1.ways="$2" -s l1.size=$((64 * $2)) \
		-s l1.replacement="$1" sample:paper/s001-table1 |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["hits"] "/" $c["requests"] }'
}
ok=0
for p in lru fifo lfu random; do
	[ "$(hits $p 4)" = 4/8 ] && [ "$(hits $p 1)" = 1/8 ] || { echo "# $p: K=4 $(hits $p 4), K=1 $(hits $p 1)"; ok=1; }
done
for p in lru fifo lfu; do
	[ "$(hits $p 2)" = 2/8 ] || { echo "# $p: K=2 $(hits $p 2)"; ok=1; }
done
result "seed 001 Table 1: 50 % at K=4 under every policy, 25 % at K=2 under LRU, FIFO and LFU" $ok

# The policies differ where they should: Figure 3's column copy.
a=$("$RDSCOPE" run -q -f csv --no-timing -s l1.replacement=lru builtin:fig3 | sed -n 2p)
b=$("$RDSCOPE" run -q -f csv --no-timing -s l1.replacement=random builtin:fig3 | sed -n 2p)
c=$("$RDSCOPE" run -q -f csv --no-timing -s l1.replacement=random builtin:fig3 | sed -n 2p)
[ -n "$a" ] && [ "$a" != "$b" ] && [ "$b" = "$c" ]
result "random replacement differs from LRU on fig3, and repeats itself (seeded)" $?

"$RDSCOPE" run -s l1.replacement=plru builtin:fig3 >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "l1.replacement" "$T/err" && grep -q "lru|fifo|lfu|random" "$T/err"
result "an unknown policy: exit 2, the choices named" $?
"$RDSCOPE" run -s model=reference-2013 -s l1.replacement=fifo builtin:fig3 >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "the reference-2013 profile models LRU only" "$T/err"
result "the reference profile refuses another policy" $?
