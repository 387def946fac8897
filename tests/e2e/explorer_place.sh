#!/bin/sh
# Screen tests of the explorer's placement view (M; seed 002, issue 20
# item 6): it opens on a kernel with arrays, listing them with the loads
# and stores `rdscope arrays` counts; Right moves an array to the next
# space it is allowed in, and the per-space rows, the L2 and the DRAM
# panel on screen are `rdscope run -s mem.NAME=SPACE`'s; a move no space
# allows (a stored array to texture, constant or a too small shared
# memory) is refused with the reason; against a pinned baseline the
# changes show; undo returns; a trace's arrays are found by gaps.
#     RDSCOPE_UPDATE_GOLDEN=1 sh tests/e2e/explorer_place.sh   (then review the diff)
NAME=explorer_place
. "$(dirname "$0")/screen.inc"

K=samples/kernels/gather.kdesc
# an L2, DRAM that is not saturated, shared memory too small for out
S="-s l2.size=65536 -s dram.enable=1 -s dram.ns_per_step=50 -s smem.size=8192"

# the screen's rows without the frame
body() { sed 's/│/ /g' "$T/$1.txt"; }

# "instr requests hits misses replays addr" of space $2 on screen $1
screen_space() { body "$1" | awk -v s="$2" '$1 == s && NF == 7 { print $2, $3, $4, $5, $6, $7; exit }'; }
# the same from `rdscope run`'s text $1
run_space() { awk -v s="$2" '$1 == s && NF == 7 { print $2, $3, $4, $5, $6, $7; exit }' "$T/$1"; }

# DRAM and L2 as the screen shows them, from the run's text: "L2 REQ MISSRATE
# DRAM HITS MISSES CONFLICTS QUEUE LATENCY AMAT"
run_mem() {
	l2r=$(sed -n 's/^L2 requests: \([0-9]*\) reads.*/\1/p' "$T/$1")
	l2m=$(sed -n 's/^L2 miss rate \([0-9.]*%\);.*/\1/p' "$T/$1")
	rh=$(awk '$1 == "row" && $2 == "hits" { print $3 }' "$T/$1")
	rm=$(awk '$1 == "row" && $2 == "misses" { print $3 }' "$T/$1")
	rc_=$(awk '$1 == "row" && $2 == "conflicts" { print $3 }' "$T/$1")
	q=$(sed -n 's/^  queueing delay \([0-9.]*\) ns.*DRAM latency \([0-9.]*\) ns.*/\1 \2/p' "$T/$1")
	a=$(sed -n 's/^  AMAT \([0-9.]*\) ns = .*/\1/p' "$T/$1")
	echo "$l2r $l2m $rh $rm $rc_ $q $a"
}
screen_mem() {
	l2=$(body "$1" | sed -n 's/^ *L2: \([0-9]*\) requests, [0-9]* misses (\([0-9.]*%\)).*/\1 \2/p')
	d=$(body "$1" | sed -n 's/^ *DRAM: [0-9]* requests\( to [0-9]* of [0-9]* banks\)\{0,1\}; row hits \([0-9]*\), misses \([0-9]*\), conflicts \([0-9]*\).*/\2 \3 \4/p')
	q=$(body "$1" | sed -n 's/^ *queueing delay \([0-9.]*\) ns, latency \([0-9.]*\) ns, AMAT \([0-9.]*\) ns.*/\1 \2 \3/p')
	echo "$l2 $d $q"
}

"$RDSCOPE" arrays "$K" >"$T/arrays.txt" 2>&1
# shellcheck disable=SC2086
"$RDSCOPE" run -q --no-timing $S -s mem.table=texture "$K" >"$T/run_tex.txt" 2>&1
# shellcheck disable=SC2086
"$RDSCOPE" run -q --no-timing $S -s mem.table=constant "$K" >"$T/run_const.txt" 2>&1

{
	echo M
	echo wait
	echo "dump-screen $T/place_open.txt"
	echo down
	echo right
	echo wait
	echo "dump-screen $T/place_texture.txt"
	echo c
	echo right
	echo wait
	echo "dump-screen $T/place_constant.txt"
	echo down
	echo right
	echo "dump-screen $T/place_refused.txt"
	echo u
	echo u
	echo wait
	echo "dump-screen $T/place_undo.txt"
	echo M
	echo "dump-screen $T/place_back.txt"
} >"$T/place.keys"
# shellcheck disable=SC2086
screen place 30 100 NO_COLOR=1 -- --no-timing $S --script "$T/place.keys" $K &&
	golden place_open && golden place_texture && golden place_constant &&
	golden place_refused && golden place_undo
result "placement: the view's screens (goldens)" $?

# The arrays with `rdscope arrays`'s loads and stores, table selected after Down.
ok=0
for a in idx table out; do
	want=$(awk -v a="$a" '$1 == a { print $7, $8 }' "$T/arrays.txt")
	got=$(body place_open | awk -v a="$a" '($1 == a || ($1 == ">" && $2 == a)) { print $(NF-1), $NF }')
	[ -n "$want" ] && [ "$want" = "$got" ] || { echo "# $a: arrays $want, screen $got"; ok=1; }
done
body place_open | grep -q '^ *> idx  *global' && grep -q 'Eq. 3: every array global' "$T/place_open.txt"
listed=$?
[ $ok -eq 0 ] && [ $listed -eq 0 ]
result "placement: M lists the arrays with rdscope arrays's loads and stores, all global" $?

# Right: table to texture; the numbers are rdscope run -s mem.table=texture's.
ok=0
body place_texture | grep -q '^ *> table  *texture' || { echo "# table not in texture"; ok=1; }
for sp in global texture; do
	w=$(run_space run_tex.txt $sp)
	g=$(screen_space place_texture $sp)
	[ -n "$w" ] && [ "$w" = "$g" ] || { echo "# $sp: run '$w', screen '$g'"; ok=1; }
done
w=$(run_mem run_tex.txt)
g=$(screen_mem place_texture)
[ "$w" = "$g" ] || { echo "# L2/DRAM: run '$w', screen '$g'"; ok=1; }
e=$(sed -n 's/.*Eq. 3: issued instructions \([-+0-9]*\) .*/\1/p' "$T/run_tex.txt")
grep -q "issued instructions $e," "$T/place_texture.txt" || { echo "# Eq. 3 $e"; ok=1; }
[ $ok -eq 0 ]
result "placement: Right moves table to texture; spaces, Eq. 3, L2 and DRAM are rdscope run's" $?

# Right again: texture2d refused (table is 1-D), skipped to constant with
# the reason; the numbers are -s mem.table=constant's; the deltas against
# the pinned texture placement are the differences.
ok=0
body place_constant | grep -q '^ *> table  *constant  *texture' || { echo "# table not in constant"; ok=1; }
grep -q 'skipped texture2d' "$T/place_constant.txt" || { echo "# no skip note"; ok=1; }
for sp in global constant; do
	w=$(run_space run_const.txt $sp)
	g=$(screen_space place_constant $sp)
	[ -n "$w" ] && [ "$w" = "$g" ] || { echo "# $sp: run '$w', screen '$g'"; ok=1; }
done
w=$(run_mem run_const.txt)
g=$(screen_mem place_constant)
[ "$w" = "$g" ] || { echo "# L2/DRAM: run '$w', screen '$g'"; ok=1; }
# constant's row against the pinned run's (texture: nothing in constant)
cr=$(run_space run_const.txt constant | awk '{ print "+" $2 }')
vs=$(body place_constant | awk '$1 == "constant" && NF == 7 { getline; print $4 }')
[ "$cr" = "$vs" ] || { echo "# constant requests vs pinned: want $cr, got $vs"; ok=1; }
[ $ok -eq 0 ]
result "placement: texture2d refused and skipped to constant; rdscope run's numbers; deltas vs pinned" $?

# out is stored to and larger than shared memory: no space takes it, the
# reason is said, nothing changes.
grep -q 'out is stored to (4096 stores) and texture memory is read-only' "$T/place_refused.txt" &&
	body place_refused | grep -q '^ *> out  *global' &&
	body place_refused | grep -q '^ *table  *constant'
result "placement: a stored array to texture is refused with the reason" $?

# Two undos: back to every array global, the texture baseline's deltas shown.
body place_undo | grep -q '^ *table  *global  *texture' &&
	grep -q 'Eq. 3: every array global' "$T/place_undo.txt" &&
	grep -q 'vs pinned: issued instructions +' "$T/place_undo.txt" &&
	grep -q "L1 miss breakdown" "$T/place_back.txt"
result "placement: undo returns to every array global; M again: back to the panes" $?

# A trace's arrays are found by gaps when it is opened, as rdscope
# arrays finds them; Right moves a0 to texture with rdscope run's numbers.
MM=samples/reference/matmul_n64_t8.trc.gz
"$RDSCOPE" arrays "$MM" >"$T/arrays_mm.txt" 2>&1
"$RDSCOPE" run -q --no-timing -s mem.a0=texture "$MM" >"$T/run_mm.txt" 2>&1
{
	echo M
	echo right
	echo wait
	echo "dump-screen $T/place_trace.txt"
} >"$T/trace.keys"
ok=1
screen trace 30 100 NO_COLOR=1 -- --no-timing --script "$T/trace.keys" $MM && ok=0
for a in a0 a1 a2; do
	want=$(awk -v a="$a" '$1 == a { print $7, $8 }' "$T/arrays_mm.txt")
	got=$(body place_trace | awk -v a="$a" '($1 == a || ($1 == ">" && $2 == a)) { print $(NF-1), $NF }')
	[ -n "$want" ] && [ "$want" = "$got" ] || { echo "# $a: arrays $want, screen $got"; ok=1; }
done
for sp in global texture; do
	w=$(run_space run_mm.txt $sp)
	g=$(screen_space place_trace $sp)
	[ -n "$w" ] && [ "$w" = "$g" ] || { echo "# $sp: run '$w', screen '$g'"; ok=1; }
done
body place_trace | grep -q '^ *> a0  *texture' || ok=1
[ $ok -eq 0 ]
result "placement: a trace's arrays found by gaps; a0 to texture as rdscope run -s mem.a0=texture" $?
