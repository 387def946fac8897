#!/bin/sh
# Screen tests of issue 40 ("in front of a class, second round"), items 3,
# 5, 8 and 10: the DRAM in the parameters pane and the placement view, w's
# picture of what the screen shows, the curves view, and the smaller
# points. The real binary ($RDSCOPE) runs in tmux panes fed by --script;
# dumps are compared with golden copies in tests/screen/
# (RDSCOPE_UPDATE_GOLDEN=1 regenerates them: review the diff) and checked
# for the lines that matter. Prints "ok - NAME" / "not ok - NAME".
NAME=lecture3
. "$(dirname "$0")/screen.inc"

# run NAME ROWS COLS ARGS...: the script $T/NAME.keys to its end.
run() {
	n=$1 r=$2 c=$3
	shift 3
	screen "$n" "$r" "$c" -- --no-timing --color=never --script "$T/$n.keys" "$@"
}

# json EXPR ARGS...: a value of run's first result (python3's expression
# on r, the run's object)
json() {
	e=$1
	shift
	"$RDSCOPE" run -q --no-timing -f json "$@" | python3 -c "
import json, sys
r = json.load(sys.stdin)['runs'][0]
print($e)"
}

# ------------------------------------------------------------ item 3: DRAM
# The L2's pane (2) has the DRAM's rows after its own: dram.enable is
# stepped like any row, M's DRAM panel then has run's numbers; the masks
# are shown in hex with their bits.
keys dram_pane <<EOF2
wait
2
$(for i in $(seq 16); do echo down; done)
right
wait
dump-screen $T/dram_pane.txt
M
wait
dump-screen $T/dram_place.txt
EOF2
req=$(json "r['dram']['requests']" -s dram.enable=1 builtin:fig3)
banks=$(json "r['dram']['banks_used']" -s dram.enable=1 builtin:fig3)
run dram_pane 32 100 && golden dram_pane &&
	grep -q '▸ dram.enable       1 on' "$T/dram_pane.txt" &&
	grep -q 'dram.channel_mask 0x1800 bits 11-12' "$T/dram_pane.txt" &&
	grep -q "DRAM: $req requests to $banks of 64 banks" "$T/dram_place.txt" &&
	grep -q 'saturated: 64 banks' "$T/dram_place.txt" &&
	grep -q 'more banks (dram.bank_mask, dram.channel_mask) or a larger dram.ns_per_step' "$T/dram_place.txt"
result "DRAM rows in the L2's pane: dram.enable on, M shows run's DRAM ($req requests, $banks banks)" $?

# The L1's pane has them too, at its end (without an L2 the DRAM is after
# the L1s); Left/Right on a mask moves its bits, one the others refuse is
# said.
keys dram_l1 <<EOF2
wait
$(for i in $(seq 26); do echo down; done)
right
wait
$(for i in $(seq 8); do echo down; done)
dump-screen $T/dram_l1_bank.txt
left
wait
dump-screen $T/dram_l1_refused.txt
EOF2
run dram_l1 30 100 &&
	grep -q 'dram.enable       1 on' "$T/dram_l1_bank.txt" &&
	grep -q '▸ dram.bank_mask    0x1e000 bits 13-16' "$T/dram_l1_bank.txt" &&
	grep -q 'dram.bank_mask    0x1e000' "$T/dram_l1_refused.txt" &&
	grep -q 'shares bit 12 with dram.bank_mask (the masks must not overlap)' "$T/dram_l1_refused.txt"
result "DRAM rows in the L1's pane; a mask moved onto another's bits is refused with why" $?

# M's hint names a preset whose DRAM is not saturated and that keeps the
# L1 on (kepler-k80 bypasses it: 100 % bypass); under kepler-k80 the
# saturated panel says why and what to change.
keys dram_hint <<EOF2
wait
M
wait
dump-screen $T/dram_hint.txt
o
type kepler-k80
enter
wait
dump-screen $T/dram_k80.txt
o
type kepler-k80-dram
enter
wait
dump-screen $T/dram_k80dram.txt
EOF2
run dram_hint 30 100 sample:placement/tile && golden dram_k80 &&
	grep -q 'o, kepler-k80-dram' "$T/dram_hint.txt" && ! grep -q 'preset kepler-k80 ' "$T/dram_hint.txt" &&
	grep -q 'DRAM: 160 requests to 4 of 16384 banks' "$T/dram_k80.txt" &&
	grep -q 'the masks use few banks' "$T/dram_k80.txt" &&
	grep -q 'DRAM: 160 requests to 128 of 256 banks' "$T/dram_k80dram.txt" &&
	grep -q 'queueing delay [0-9.]* ns, latency [0-9.]* ns, AMAT [0-9.]* ns' "$T/dram_k80dram.txt" &&
	! grep -q 'saturated' "$T/dram_k80dram.txt" &&
	grep -q 'L1: 8192 requests, 2176 misses' "$T/dram_k80dram.txt"
result "M: the hint names kepler-k80-dram; under kepler-k80 it says why the DRAM saturates" $?

# The preset: no sample of the placement demo, nor fig3, saturates its
# DRAM, and its L1 caches loads (no bypass); kepler-k80's saturate all
# five (its comment says why).
ok=0
for s in sample:placement/broadcast sample:placement/rowsum2d sample:placement/tile \
	sample:placement/tile-strided builtin:fig3; do
	v=$(json "r['dram']['saturated'], r['counts']['bypass'], r['dram']['amat'] is not None" -p kepler-k80-dram "$s")
	[ "$v" = "False 0 True" ] || { echo "# $s under kepler-k80-dram: $v"; ok=1; }
	v=$(json "r['dram']['saturated']" -p kepler-k80 "$s")
	[ "$v" = True ] || { echo "# $s under kepler-k80: $v"; ok=1; }
done
grep -q '^# Why kepler-k80 saturates' presets/kepler-k80-dram.cfg || ok=1
result "preset kepler-k80-dram: the placement samples and fig3 unsaturated, L1 on; kepler-k80 saturated" $ok

# ------------------------------------------------------------ item 10
# The pane's labels are the keys -s takes: l1.mshr_per_warp_counts and
# gpu.scheduler_policy were cut to mshr_per_warp_cnt and gpu.sched_policy.
keys labels <<EOF2
wait
$(for i in $(seq 21); do echo down; done)
dump-screen $T/labels.txt
EOF2
run labels 30 100 &&
	grep -q 'l1.mshr_per_warp_counts entries' "$T/labels.txt" &&
	grep -q 'gpu.scheduler_policy rr' "$T/labels.txt" &&
	! grep -q 'mshr_per_warp_cnt\|sched_policy ' "$T/labels.txt" &&
	"$RDSCOPE" run -q -s l1.mshr_per_warp_counts=entries -s gpu.scheduler_policy=rr builtin:fig3 >/dev/null
result "item 10: the pane's labels are the keys -s takes" $?

# ------------------------------------------------------------ item 8: g
# The curves view draws lines between the points (the marks alone read as
# scattered digits), and where fermi refuses a set count the curves and
# the sweep take the hash Left/Right switches to (xor), as the main pane
# does, instead of "n/a: fermi needs 32 or 64 sets". Every point equals
# rdscope run on its configuration (the CSV's l1.hash column).
keys curves_fermi <<EOF2
wait
g
wait
dump-screen $T/curves_fermi.txt
dump-curves $T/curves_fermi.csv
EOF2
run curves_fermi 30 100 && golden curves_fermi &&
	! grep -q 'n/a' "$T/curves_fermi.txt" &&
	grep -q '0.25x   4096 xor ' "$T/curves_fermi.txt" &&
	grep -q 'fermi: 32 or 64 sets only; xor elsewhere (as Left/Right)' "$T/curves_fermi.txt" &&
	[ "$(sed -n '/100%/,/  0%/p' "$T/curves_fermi.txt" | grep -c '[─\\/]')" -ge 10 ]
result "g on fig3: lines between the points; fermi's refused sizes take xor as Left/Right does" $?
ok=0
n=0
LF="-s latency.hit=0 -s latency.miss=0 -s latency.stddev=0 -s l1.mshrs=0 -s l1.mshr_per_warp=0"
while IFS=, read -r curve key value size ways req miss rate hash; do
	[ "$curve" = curve ] && continue
	case $curve in
	latency-free) set -- $LF ;;
	*) set -- ;;
	esac
	[ $((n % 4)) = 0 ] || [ "$curve" = timing ] || { n=$((n + 1)); continue; }
	n=$((n + 1))
	got=$(json "r['counts']['requests'], r['counts']['misses'] - r['counts']['latency']" \
		"$@" -s l1.size="$size" -s l1.ways="$ways" -s l1.hash="$hash" builtin:fig3)
	[ "$got" = "$req $miss" ] || { echo "# $curve $size $ways $hash: view $req $miss, run $got"; ok=1; }
done <"$T/curves_fermi.csv"
grep -q '^timing,l1.size,4096,4096,4,[0-9]*,[0-9]*,[0-9.]*,xor$' "$T/curves_fermi.csv" || ok=1
result "g on fig3: its points (every 4th latency-free, every timing one) are rdscope run's, hash included" $ok

# ------------------------------------------------------------ item 5: w
# w writes what the screen shows: in compare mode the pinned run beside
# the current one; the L2 when its pane is on screen; the DRAM in the
# placement view; labels inside the canvas (the caption was cut at the
# left edge: a label wider than its column was squeezed with textLength,
# which renderers may ignore) and the page filled (the one bar sat atop
# an empty half).
. "$(dirname "$0")/svg.inc"
keys svg_compare <<EOF2
wait
c
wait
down
down
down
down
left
wait
w
type $T/compare.svg
enter
wait
dump-screen $T/svg_compare.txt
EOF2
run svg_compare 30 100 && svg_ok "$T/compare.svg" 0.9 &&
	[ "$(svg_count "$T/compare.svg" point)" = 2 ] && [ "$(svg_count "$T/compare.svg" histogram)" = 2 ] &&
	svg_texts "$T/compare.svg" bar-label | grep -q '^now: fig3-colcopy-h256: 16 KiB, 4-way, 128 B lines, fermi, 32 MSHRs, latency 100$' &&
	svg_texts "$T/compare.svg" bar-label | grep -q '^pinned: fig3-colcopy-h256: 16 KiB, 4-way, 128 B lines, fermi, 64 MSHRs, latency 100$'
result "w in compare mode: the current and the pinned run, labels inside the canvas, the page filled" $?

keys svg_l2 <<EOF2
wait
w
type $T/l2.svg
enter
wait
M
wait
w
type $T/place.svg
enter
wait
dump-screen $T/svg_place.txt
EOF2
run svg_l2 40 160 -p kepler-k80-dram sample:placement/tile &&
	svg_ok "$T/l2.svg" 0.9 && svg_ok "$T/place.svg" 0.9 &&
	[ "$(svg_count "$T/l2.svg" level-l2)" = 1 ] && [ "$(svg_count "$T/l2.svg" 'histogram l2')" = 1 ] &&
	[ "$(svg_count "$T/l2.svg" dram)" = 0 ] && [ "$(svg_count "$T/place.svg" dram)" = 1 ] &&
	svg_texts "$T/place.svg" dram-line | grep -q '^160 requests to 128 of 256 banks$' &&
	svg_texts "$T/place.svg" dram-line | grep -q '^queueing delay [0-9.]* ns, latency [0-9.]* ns, AMAT [0-9.]* ns$'
result "w with L1 and L2 side by side draws the L2; in the placement view the DRAM too" $?

# Only what is on screen: at 100 columns the L2's pane is not beside the
# L1's, so no L2 panel (2 brings it).
keys svg_narrow <<EOF2
wait
w
type $T/narrow.svg
enter
wait
2
w
type $T/focus.svg
enter
wait
EOF2
run svg_narrow 30 100 -p kepler-k80-dram sample:placement/tile &&
	[ "$(svg_count "$T/narrow.svg" level-l2)" = 0 ] && [ "$(svg_count "$T/focus.svg" level-l2)" = 1 ] &&
	svg_ok "$T/narrow.svg" 0.9 && svg_ok "$T/focus.svg" 0.9
result "w draws the L2 only when its pane is on screen (side by side or 2)" $?

# --plot draws the L2's and the DRAM's panels of the runs that have them,
# with run's numbers.
"$RDSCOPE" run -q --no-timing -p kepler-k80-dram --plot "$T/run.svg" -o "$T/run.txt" sample:placement/tile
svg_ok "$T/run.svg" 0.9 && [ "$(svg_count "$T/run.svg" level-l2)" = 1 ] &&
	[ "$(svg_count "$T/run.svg" dram)" = 1 ] && [ "$(svg_count "$T/run.svg" 'histogram l2')" = 1 ] &&
	grep -q "DRAM: 160 requests" "$T/run.txt" &&
	svg_texts "$T/run.svg" dram-line | grep -q '^160 requests to 128 of 256 banks$'
result "run --plot with an L2 and DRAM: their panels, run's numbers, inside the canvas" $?

# A sweep (many runs, labels left of their bars) stays inside the canvas.
"$RDSCOPE" sweep -q --no-timing -s l1.hash=mod --vary l1.ways=1,2,4,8 --plot "$T/sweep.svg" \
	-o "$T/sweep.txt" builtin:fig3 && svg_ok "$T/sweep.svg" 0.9 &&
	[ "$(svg_count "$T/sweep.svg" point)" = 4 ]
result "sweep --plot: labels and texts inside the canvas" $?

# ------------------------------------------------------------ item 10
# Sweep pictures: a skipped point is said where its bar would be (it was
# silently missing) and a heading names the input with its kernel (the
# kernel's name alone, "rowsum", did not say which sample).
"$RDSCOPE" sweep -q --no-timing --vary l1.size=4096,16384 --plot "$T/skip.svg" -o "$T/skip.csv" \
	sample:placement/rowsum2d sample:placement/tile 2>"$T/skip.err"
svg_ok "$T/skip.svg" 0.9 && [ "$(svg_count "$T/skip.svg" point)" = 4 ] &&
	[ "$(svg_texts "$T/skip.svg" skipped | grep -c '^skipped: l1.hash: fermi needs 32 or 64 sets')" = 2 ] &&
	svg_texts "$T/skip.svg" input | grep -qx 'sample:placement/rowsum2d (rowsum)' &&
	svg_texts "$T/skip.svg" input | grep -qx 'sample:placement/tile (tile)' &&
	[ "$(svg_count "$T/skip.svg" histogram)" = 2 ]
result "item 10: sweep --plot marks a skipped point; its headings name the input and kernel" $?

# PageDown in the help moves a page (it moved 5 lines, as Down); Down one
# line.
keys help_page <<EOF2
?
dump-screen $T/help_p0.txt
pagedown
dump-screen $T/help_p1.txt
down
dump-screen $T/help_p2.txt
EOF2
run help_page 30 100 &&
	[ "$(sed -n 3p "$T/help_p1.txt")" = "$(sed -n 28p "$T/help_p0.txt")" ] &&
	[ "$(sed -n 3p "$T/help_p2.txt")" = "$(sed -n 4p "$T/help_p1.txt")" ]
result "item 10: PageDown in the help moves a page (25 lines at 30 rows), Down one line" $?

# i explains the L2 when its pane has the focus, with its numbers, and
# the breakdown's estimate after R ("est. 94.38%" was unexplained).
keys info_l2 <<EOF2
wait
2
i
dump-screen $T/info_l2.txt
EOF2
"$RDSCOPE" run -q --no-timing -p kepler-k80-dram -f csv -o "$T/l2.csv" builtin:fig3
l2r=$(python3 -c "import csv; r = next(csv.DictReader(open('$T/l2.csv'))); print(r['l2_requests'], r['l2_hits'], r['l2_misses'])")
run info_l2 30 100 -p kepler-k80-dram && golden info_l2 &&
	grep -q 'The L2 (in focus: 2 goes back to the L1)' "$T/info_l2.txt" &&
	tr -s ' \n' '  ' <"$T/info_l2.txt" | sed 's/│//g' | tr -s ' ' |
	grep -q "Here: $(echo "$l2r" | awk '{ print $1 " requests, " $2 " hits, " $3 " misses" }')"
result "item 10: i with the L2 in focus explains the L2 with run's numbers ($l2r)" $?

keys info_est <<EOF2
wait
R
wait
R
wait
dump-screen $T/est.txt
i
dump-screen $T/info_est.txt
EOF2
run info_est 30 100 &&
	grep -q 'est\. [0-9.]*% (R)' "$T/est.txt" &&
	e=$(grep -o 'est\. [0-9.]*%' "$T/est.txt" | head -n 1) &&
	grep -q "$e (R): the miss rate the reuse profile measured by R estimates" "$T/info_est.txt"
result "item 10: the breakdown's estimate after R says (R), and i explains it" $?

# No "seed 00N" in the explorer's titles: seed is also a key.
grep -q 'seed 00' "$T/dram_pane.txt" "$T/dram_k80.txt" "$T/dram_hint.txt" "$T/dram_place.txt"
[ $? -ne 0 ]
result "item 10: no 'seed 00N' in the DRAM's heading or the placement view's title" $?

# i explains sector misses where the L1 has sectors (issue 37 item 6),
# with the run's own sector counts; not without sectors
keys info_sectors <<EOF2
wait
i
wait
dump-screen $T/info_sectors.txt
EOF2
keys info_lines <<EOF2
wait
i
wait
dump-screen $T/info_lines.txt
EOF2
h=$(json "r['sectors']['hits']" -s l1.sector=32 sample:effects/sectors)
l=$(json "r['sectors']['lookups']" -s l1.sector=32 sample:effects/sectors)
run info_sectors 60 140 -s l1.sector=32 sample:effects/sectors &&
	run info_lines 60 140 sample:effects/sectors &&
	tr -s ' \n' ' ' <"$T/info_sectors.txt" | grep -q "Sector misses" &&
	tr -d '\n' <"$T/info_sectors.txt" | tr -s ' ' | grep -q "Here $h of $l load sector lookups found their sector: 87.50 %" &&
	! grep -q "Sector misses" "$T/info_lines.txt"
result "i explains sector misses with the run's sector counts (87.50 %), only where l1.sector is set" $?

# The step view draws the request's line's sectors (issue 37 item 6):
# thread 0's 9th load asks sector 1 of a line that holds sector 0, a
# sector miss; its first, the line's miss, brings sector 0 only. No such
# line without sectors.
keys step_sectors <<EOF2
wait
s
wait
dump-screen $T/step_sect0.txt
:
type 256
enter
right
right
right
right
right
right
dump-screen $T/step_sect8.txt
EOF2
sed 's/step_sect/step_line/' "$T/step_sectors.keys" >"$T/step_lines.keys"
run step_sectors 30 120 -s l1.sector=32 -s latency.miss=0 -s latency.stddev=0 sample:effects/sectors &&
	run step_lines 30 120 -s latency.miss=0 -s latency.stddev=0 sample:effects/sectors &&
	grep -q "sectors  had □□□□  asked ■□□□  the line's miss brings only these" "$T/step_sect0.txt" &&
	grep -q "thread 0  instruction 8 " "$T/step_sect8.txt" &&
	grep -q "sectors  had ■□□□  asked □■□□  sector 1 not fetched: a sector miss" "$T/step_sect8.txt" &&
	grep -q "sector miss: line 2097152 is in set 0 (distance 3 < 4 ways) but its sector 1 was never fetched" "$T/step_sect8.txt" &&
	grep -q "thread 0  instruction 8 " "$T/step_line8.txt" &&
	! grep -q "sectors  had" "$T/step_line0.txt" "$T/step_line8.txt"
result "the step view draws the line's sectors: sector 1 not fetched is a sector miss; none without l1.sector" $?
