#!/bin/sh
# Screen tests of the explorer on a kernel past the load limit (issue 38):
# where rdscope run models a description SM by SM (rd_parts), the
# explorer does too instead of refusing it: the breakdown's totals are
# run's, an edit reruns it (its totals then run's under the edit), and
# the views that need the kernel's accesses say why they are not there
# (the explorer stays up through their keys); a mapped .rdt past the limit
# opens SM by SM as well. While the SMs run, the breakdown shows the L1 of
# those done (partial: N/132 SMs), the L2 only at the end. Without parts
# (RDSCOPE_PARTS=0) the load limit still refuses it.
NAME=explorer_parts
. "$(dirname "$0")/screen.inc"

# (the tmux server was started without it: each session gets it, too)
export RDSCOPE_MAX_LOADS=20000 # gemm:small: 66560 loads, 16640 an SM
K=samples/polybench/gemm.kdesc:small
CFG="-p hopper-h100 -s gpu.max_threads=0"

# hits_run ARGS...: "HITS RATE" of rdscope run's L1 (its first hits line
# and miss rate)
hits_run() {
	"$RDSCOPE" run --no-timing $CFG "$@" $K >"$T/run.txt" 2>"$T/run.err" || return 1
	h=$(awk '$1 == "hits" { print $2; exit }' "$T/run.txt")
	m=$(sed -n 's/^miss rate \([0-9.]*%\).*/\1/p' "$T/run.txt" | head -1)
	echo "$h $m"
}
# hits_screen FILE: the same of the breakdown on screen
hits_screen() {
	[ -f "$1" ] || return 0
	h=$(sed -n 's/.*│░ hits  *\([0-9][0-9]*\) .*/\1/p' "$1" | head -1)
	m=$(sed -n 's/.* miss rate \([0-9.]*%\) .*/\1/p' "$1" | head -1)
	echo "$h $m"
}

want=$(hits_run) && want64=$(hits_run -s l1.line=64)
# (the whole kernel is refused: what the explorer meets)
RDSCOPE_PARTS=0 "$RDSCOPE" run $CFG $K >/dev/null 2>"$T/whole.err"
grep -q "more than 20000 loads in one kernel" "$T/whole.err" && [ "$want" != "$want64" ] &&
	[ -n "${want%% *}" ]
result "parts: run models gemm:small in parts past RDSCOPE_MAX_LOADS=20000 ($want; line 64: $want64)" $?

# ---------------------------------------------------------------- totals
# Open, wait for the result; l1.line 128 -> 64 (two rows down) reruns it;
# then the keys of the views that need the accesses.
keys parts <<KEYS
wait
dump-screen $T/first.txt
down
down
left
wait
dump-screen $T/edit.txt
s
dump-screen $T/step.txt
L
dump-screen $T/sources.txt
g
dump-screen $T/curves.txt
R
dump-screen $T/profile.txt
M
dump-screen $T/place.txt
B
dump-screen $T/l1b.txt
m
wait
dump-screen $T/heat.txt
esc
[
]
T
u
wait
dump-screen $T/undo.txt
q
KEYS
screen parts 34 120 NO_COLOR=1 RDSCOPE_MAX_LOADS=20000 -- --no-timing $CFG --script "$T/parts.keys" $K
rc=$?
got=$(hits_screen "$T/first.txt")
[ $rc -eq 0 ] && [ "$got" = "$want" ] && grep -q "gemm_kernel (modelled SM by SM" "$T/first.txt"
result "parts: the explorer opens it SM by SM with run's totals (screen: $got; run: $want)" $?

got=$(hits_screen "$T/edit.txt")
[ "$got" = "$want64" ] && grep -q "l1.line  *64" "$T/edit.txt"
result "parts: an edit (l1.line 64) reruns it: run's totals (screen: $got; run: $want64)" $?

got=$(hits_screen "$T/undo.txt")
[ "$got" = "$want" ]
result "parts: undo brings the first totals back ($got)" $?

ok=0
for v in step:step-through sources:sources curves:curves profile:profile place:placement; do
	f=${v%%:*} name=${v#*:}
	if ! cat "$T/$f.txt" 2>/dev/null | tr -d '\n' | grep -q "this kernel is modelled SM by SM: the $name view needs its accesses" ||
		! grep -q "L1 miss breakdown" "$T/$f.txt"; then
		echo "# $f: no reason on screen, or the view opened"
		tail -n 4 "$T/$f.txt" 2>&1 | sed 's/^/# /'
		ok=1
	fi
done
[ $ok -eq 0 ]
result "parts: the step-through, sources, curves, profile and placement say why they are not there" $?

ok=0
cat "$T/l1b.txt" 2>/dev/null | tr -d '\n' | grep -q "modelled SM by SM: the L1B pair is not" || ok=1
grep -qs "requests per set" "$T/heat.txt" || ok=1
[ $ok -eq 0 ] || tail -n 3 "$T/l1b.txt" "$T/heat.txt" 2>&1 | sed 's/^/# /'
[ $ok -eq 0 ]
result "parts: B says the L1B pair is not there; the heat map (m) draws" $?

# ---------------------------------------------------------------- refused
# Under a limit of 40000 its first SM's loads (16640 x 4 SMs) do not say
# it is past the limit: the explorer tries it whole, is refused, and then
# models it SM by SM; the edit comes at once (it stops the first run
# where that is still going).
keys refused <<KEYS
down
down
left
wait
dump-screen $T/refused.txt
q
KEYS
screen refused 34 120 NO_COLOR=1 RDSCOPE_MAX_LOADS=40000 -- --no-timing $CFG \
	--script "$T/refused.keys" $K
rc=$?
got=$(hits_screen "$T/refused.txt")
[ $rc -eq 0 ] && [ "$got" = "$want64" ] && grep -q "gemm_kernel (modelled SM by SM" "$T/refused.txt"
result "parts: a kernel refused whole is then modelled SM by SM (screen: $got; run: $want64)" $?

# ---------------------------------------------------------------- .rdt
# the same kernel as a mapped .rdt past the limit: SM by SM, run's totals
# (converted and run whole: no limit)
env -u RDSCOPE_MAX_LOADS "$RDSCOPE" convert -q $K "$T/g.rdt"
env -u RDSCOPE_MAX_LOADS "$RDSCOPE" run --no-timing $CFG "$T/g.rdt" >"$T/rrun.txt" 2>/dev/null
wantr="$(awk '$1 == "hits" { print $2; exit }' "$T/rrun.txt") $(sed -n 's/^miss rate \([0-9.]*%\).*/\1/p' "$T/rrun.txt" | head -1)"
keys rdt <<KEYS
wait
dump-screen $T/rdt.txt
q
KEYS
screen rdt 34 120 NO_COLOR=1 RDSCOPE_MAX_LOADS=20000 -- --no-timing $CFG --script "$T/rdt.keys" \
	"$T/g.rdt"
rc=$?
got=$(hits_screen "$T/rdt.txt")
[ $rc -eq 0 ] && [ "$got" = "$wantr" ] && grep -q "gemm_kernel (modelled SM by SM" "$T/rdt.txt"
result "parts: a .rdt past the limit opens SM by SM with run's totals (screen: $got; run: $wantr)" $?

# ---------------------------------------------------------------- partial
# gemm at 256 (34 M loads; about 1 s SM by SM here, most of it building
# the parts, one at a time whatever the cores; a minute under TSan): while
# it runs the breakdown shows the L1 of the SMs done, classes and all,
# marked "partial: N/132 SMs", the L2 pane only "when all SMs are done".
# An edit then (l1.line 128 -> 64) stops it between parts: the screen ends
# with run's totals of line 64; undo runs line 128 again: run's totals.
# The keyboard's explorer, polled (no script: its wait gives up after
# 60 s).
KB="-D NI=256 -D NJ=256 -D NK=256 samples/polybench/gemm.kdesc"
# totals_run ARGS...: "HITS RATE L2 HITS" of rdscope run
totals_run() {
	RDSCOPE_MAX_LOADS=1000000 "$RDSCOPE" run --no-timing $CFG "$@" $KB >"$T/brun.txt" 2>"$T/brun.err"
	echo "$(awk '$1 == "hits" { print $2; exit }' "$T/brun.txt")" \
		"$(sed -n 's/^miss rate \([0-9.]*%\).*/\1/p' "$T/brun.txt" | head -1)" \
		"L2 $(awk '$1 == "hits" { n++; if (n == 2) { print $2; exit } }' "$T/brun.txt")"
}
wantb=$(totals_run)
wantb64=$(totals_run -s l1.line=64)
start partial 34 190 NO_COLOR=1 RDSCOPE_MAX_LOADS=1000000 -- --no-timing $CFG $KB
# poll FILE TEXT [TEXT2]: wait (up to 10 min) for TEXT (and TEXT2) in the
# pane, into FILE; 1 if time ran out, or (TEXT2 not "model done") the run
# ended first
poll() {
	i=0
	while [ $i -lt 12000 ] && [ ! -s "$T/partial.rc" ]; do
		tmux -L "$SOCK" capture-pane -p -t partial >"$T/pcap.txt" 2>/dev/null
		grep -q "$2" "$T/pcap.txt" && grep -q "${3:-$2}" "$T/pcap.txt" &&
			{ cp "$T/pcap.txt" "$1"; return 0; }
		[ "${3:-}" != "model done" ] && grep -q "model done" "$T/pcap.txt" && return 1
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
: >"$T/pmid.txt" && : >"$T/p64.txt" && : >"$T/pundo.txt"
# (the pane's title and the status line's words, both: a capture taken
# while a frame is being written can have the one and not yet the other)
poll "$T/pmid.txt" "partial: [0-9]*/132 SMs" "partial result: the L1 of those done"
tmux -L "$SOCK" send-keys -t partial Down Down Left
poll "$T/p64.txt" "l1.line  *64 B" "model done"
tmux -L "$SOCK" send-keys -t partial u
poll "$T/pundo.txt" "l1.line  *128 B" "model done"
tmux -L "$SOCK" send-keys -t partial q
finish partial
rc=$?
# l1 TEXT FILE: the number after TEXT in the L1's pane of FILE (the middle
# one: "params││L1││L2"); l2 the same in the L2's
l1() { awk -F'││' '{ print $2 }' "$2" | grep -o "^$1 *[0-9.]*%*" | head -1 | sed "s/^$1 *//"; }
l2() { awk -F'││' '{ print $3 }' "$2" | grep -o "^$1 *[0-9.]*%*" | head -1 | sed "s/^$1 *//"; }
totals_screen() { echo "$(l1 "░ hits" "$1") $(l1 " miss rate" "$1") L2 $(l2 "░ hits" "$1")"; }
# the L1's rows of hits and of compulsory misses: counts (not "pending")
mh=$(l1 "░ hits" "$T/pmid.txt")
mc=$(l1 "# compulsory" "$T/pmid.txt")
sms=$(sed -n 's/.*partial: \([0-9]*\)\/132 SMs.*/\1/p' "$T/pmid.txt" | head -1)
ok=0
[ -n "$mh" ] && [ "$mh" -gt 0 ] && [ "$mh" -lt "${wantb%% *}" ] || ok=1
[ -n "$mc" ] && [ "$mc" -gt 0 ] && [ -n "$sms" ] && [ "$sms" -lt 132 ] || ok=1
grep -q "L2 miss breakdown (when all SMs are done)" "$T/pmid.txt" || ok=1
grep -q "partial result: the L1 of those done, unscaled" "$T/pmid.txt" || ok=1
[ $ok -eq 0 ] || sed 's/^/# /' "$T/pmid.txt"
[ $rc -eq 0 ] && [ $ok -eq 0 ]
result "parts: while it runs, the L1 of the SMs done ($sms/132 SMs: hits $mh, compulsory $mc), the L2 at the end" $?
got=$(totals_screen "$T/p64.txt")
[ "$got" = "$wantb64" ] && ! grep -q "partial" "$T/p64.txt" && [ -n "${wantb64%% *}" ]
result "parts: an edit then stops it; run's totals of the edit (screen: $got; run: $wantb64)" $?
got=$(totals_screen "$T/pundo.txt")
[ "$got" = "$wantb" ] && ! grep -q "partial" "$T/pundo.txt" && [ -n "${wantb%% *}" ]
result "parts: undo, run again: run's totals (screen: $got; run: $wantb)" $?

# ---------------------------------------------------------------- no parts
keys noparts <<KEYS
q
KEYS
start noparts 34 120 NO_COLOR=1 RDSCOPE_MAX_LOADS=20000 RDSCOPE_PARTS=0 -- --no-timing $CFG \
	--script "$T/noparts.keys" $K
i=0
while [ ! -s "$T/noparts.rc" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(cat "$T/noparts.rc")" = 2 ] && grep -q "more than 20000 loads in one kernel" "$T/noparts.err"
result "parts: RDSCOPE_PARTS=0 refuses it as before" $?
