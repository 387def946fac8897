#!/bin/sh
# The README's lecturer demos (issue 40) as scripted explorer sessions:
# (a) conflicts, (b) MSHRs, (c) L1 -> L2 -> DRAM, (d) placement, (e) the
# step-through of typed addresses, (f) reuse profiles, (g) exact counts.
# Each runs from make run's screen or a named sample in at most 10 keys
# (a prompt's typed text counts as one; Enter takes w's offered file
# name), ends on a golden screen (tests/screen/demo_*.txt;
# RDSCOPE_UPDATE_GOLDEN=1 regenerates them: review the diff) whose numbers
# are rdscope run's, and writes w's picture of it: xmllint reads it, its
# texts lie inside the canvas, the drawing fills the page, and it has
# what the screen shows. Prints "ok - NAME" / "not ok - NAME".
NAME=demos
. "$(dirname "$0")/screen.inc"
. "$(dirname "$0")/svg.inc"
# demo NAME ROWS COLS ARGS...: the script $T/NAME.keys to its end, in the
# directory $T/NAME (where w's offered file name lands).
demo() {
	n=$1 r=$2 c=$3
	shift 3
	mkdir -p "$T/$n"
	CWD="$T/$n" screen "$n" "$r" "$c" -- --no-timing --color=never --script "$T/$n.keys" "$@"
}

# keycount NAME: the keys a lecturer presses in $T/NAME.keys (not the
# script's wait and dump lines; a typed text is one)
keycount() {
	grep -cv '^\(wait\|dump-screen .*\|dump-curves .*\)$' "$T/$1.keys"
}

# counts ARGS...: hits and misses of run's first result (and its L2's and
# DRAM's where it has them), as "hits misses"
counts() {
	"$RDSCOPE" run -q --no-timing -f json "$@" | python3 -c "
import json, sys
r = json.load(sys.stdin)['runs'][0]
print(r['counts']['hits'], r['counts']['misses'])"
}

# ------------------------------------------------------------ (a)
# Conflicts: sample:effects/conflicts under fermi has compulsory misses
# only; pinned, l1.hash mod turns 75 % of the requests into associativity
# misses; w draws both runs.
keys demo_a <<EOF2
wait
down
down
down
c
left
left
wait
dump-screen $T/demo_a.txt
w
enter
wait
EOF2
read -r h m <<EOF2
$(counts -s l1.hash=mod sample:effects/conflicts)
EOF2
demo demo_a 30 100 sample:effects/conflicts && golden demo_a &&
	[ "$(keycount demo_a)" -le 10 ] &&
	grep -q 'l1.hash  *mod' "$T/demo_a.txt" && grep -q "hits  *$h " "$T/demo_a.txt" &&
	grep -q 'assoc  *96  *75.00%' "$T/demo_a.txt" &&
	svg_ok "$T/demo_a/conflicts.svg" 0.9 && [ "$(svg_count "$T/demo_a/conflicts.svg" point)" = 2 ] &&
	svg_texts "$T/demo_a/conflicts.svg" bar-label | grep -q '^pinned: conflicts: .*, fermi,' &&
	svg_texts "$T/demo_a/conflicts.svg" bar-label | grep -q '^now: conflicts: .*, mod,'
result "demo (a) conflicts: fermi pinned, mod's 75 % associativity misses, w draws both ($(keycount demo_a) keys)" $?

# ------------------------------------------------------------ (b)
# MSHRs: make run's fig3 pinned, 64 -> 16 MSHRs: 13 hits -> 20974 (the
# MSHR misses fall).
keys demo_b <<EOF2
wait
c
down
down
down
down
left
left
wait
dump-screen $T/demo_b.txt
w
enter
wait
EOF2
read -r h m <<EOF2
$(counts -s l1.mshrs=16 builtin:fig3)
EOF2
demo demo_b 30 100 && golden demo_b &&
	[ "$(keycount demo_b)" -le 10 ] &&
	grep -q 'l1.mshrs  *16' "$T/demo_b.txt" && grep -q "hits  *$h " "$T/demo_b.txt" &&
	[ "$h" = 20974 ] &&
	svg_ok "$T/demo_b/fig3.svg" 0.9 && [ "$(svg_count "$T/demo_b/fig3.svg" point)" = 2 ] &&
	svg_texts "$T/demo_b/fig3.svg" bar-label | grep -q '^now: .* 16 MSHRs' &&
	svg_texts "$T/demo_b/fig3.svg" bar-label | grep -q '^pinned: .* 64 MSHRs'
result "demo (b) MSHRs: fig3 pinned, 16 MSHRs: $h hits, w draws both ($(keycount demo_b) keys)" $?

# ------------------------------------------------------------ (c)
# L1 -> L2 -> DRAM: fig3 under kepler-k80-dram on a wide terminal shows
# the L1 and the L2 side by side; M adds the DRAM (not saturated); w there
# draws all three.
keys demo_c <<EOF2
wait
dump-screen $T/demo_c.txt
M
wait
dump-screen $T/demo_c_dram.txt
w
enter
wait
EOF2
demo demo_c 40 160 -p kepler-k80-dram && golden demo_c && golden demo_c_dram &&
	[ "$(keycount demo_c)" -le 10 ] &&
	grep -q 'L1 miss breakdown' "$T/demo_c.txt" && grep -q 'L2 miss breakdown' "$T/demo_c.txt" &&
	grep -q 'DRAM: 8192 requests to 256 of 256 banks' "$T/demo_c_dram.txt" &&
	grep -q 'AMAT [0-9.]* ns' "$T/demo_c_dram.txt" && ! grep -q saturated "$T/demo_c_dram.txt" &&
	svg_ok "$T/demo_c/fig3.svg" 0.9 && [ "$(svg_count "$T/demo_c/fig3.svg" level-l2)" = 1 ] &&
	[ "$(svg_count "$T/demo_c/fig3.svg" dram)" = 1 ] &&
	svg_texts "$T/demo_c/fig3.svg" dram-line | grep -q '^8192 requests to 256 of 256 banks$'
result "demo (c) L1 -> L2 -> DRAM: both levels side by side, M's DRAM, w draws the three ($(keycount demo_c) keys)" $?

# ------------------------------------------------------------ (d)
# Placement: the tile sample under kepler-k80-dram, pinned, x moved to
# texture memory; w draws both placements with their L2 and DRAM.
keys demo_d <<EOF2
wait
M
wait
c
right
wait
dump-screen $T/demo_d.txt
w
enter
wait
EOF2
read -r h m <<EOF2
$(counts -p kepler-k80-dram -s mem.x=texture sample:placement/tile)
EOF2
demo demo_d 40 120 -p kepler-k80-dram sample:placement/tile && golden demo_d &&
	[ "$(keycount demo_d)" -le 10 ] &&
	grep -q '> x  *texture  *global' "$T/demo_d.txt" &&
	grep -q "L1: [0-9]* requests, $m misses" "$T/demo_d.txt" &&
	svg_ok "$T/demo_d/tile.svg" 0.9 && [ "$(svg_count "$T/demo_d/tile.svg" point)" = 2 ] &&
	[ "$(svg_count "$T/demo_d/tile.svg" dram)" = 2 ] &&
	svg_texts "$T/demo_d/tile.svg" bar-label | grep -q '^now: tile: .*, x=texture$'
result "demo (d) placement: x to texture against the pinned all-global run ($m misses), w draws both ($(keycount demo_d) keys)" $?

# ------------------------------------------------------------ (e)
# The step-through of typed addresses: five lines of one set under mod
# with latency 0 (the textbook's stack distances: no hits), stepped.
keys demo_e <<EOF2
wait
a
type 0 4096 8192 12288 16384 0 4096 8192
enter
wait
s
wait
end
dump-screen $T/demo_e.txt
esc
w
enter
wait
EOF2
demo demo_e 30 100 -s l1.hash=mod -s latency.miss=0 -s latency.stddev=0 && golden demo_e &&
	[ "$(keycount demo_e)" -le 10 ] && ! grep -q 'GPU timing' "$T/demo_e.txt" &&
	grep -q 'distance  *∞  *∞  *∞  *∞  *∞  *4  *4  *4 *$' "$T/demo_e.txt" &&
	svg_ok "$(ls "$T"/demo_e/*.svg)" 0.9 && [ "$(svg_count "$(ls "$T"/demo_e/*.svg)" point)" = 1 ] &&
	[ "$(svg_count "$(ls "$T"/demo_e/*.svg)" histogram)" = 1 ]
result "demo (e) typed addresses stepped through at latency 0, w's picture ($(keycount demo_e) keys)" $?

# ------------------------------------------------------------ (f)
# Reuse profiles: R on make run's fig3, its estimate beside the model's
# rate back on the panes.
keys demo_f <<EOF2
wait
R
wait
dump-screen $T/demo_f.txt
R
wait
dump-screen $T/demo_f_est.txt
w
enter
wait
EOF2
demo demo_f 30 100 && golden demo_f &&
	[ "$(keycount demo_f)" -le 10 ] && grep -q 'Reuse profile' "$T/demo_f.txt" &&
	grep -q 'est\. [0-9.]*% (R)' "$T/demo_f_est.txt" &&
	svg_ok "$T/demo_f/fig3.svg" 0.9 && [ "$(svg_count "$T/demo_f/fig3.svg" point)" = 1 ]
result "demo (f) reuse profile: R, its estimate on the panes, w's picture ($(keycount demo_f) keys)" $?

# ------------------------------------------------------------ (g)
# Exact counts: H on a description (gemm, HayStack's counts per level).
keys demo_g <<EOF2
wait
H
wait
dump-screen $T/demo_g.txt
w
enter
wait
EOF2
demo demo_g 30 100 sample:haystack/gemm && golden demo_g &&
	[ "$(keycount demo_g)" -le 10 ] && grep -q 'Exact counts (HayStack)' "$T/demo_g.txt" &&
	svg_ok "$T/demo_g/gemm.svg" 0.9 && [ "$(svg_count "$T/demo_g/gemm.svg" point)" = 1 ]
result "demo (g) exact counts: H on gemm, w's picture ($(keycount demo_g) keys)" $?
