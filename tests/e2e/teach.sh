#!/bin/sh
# Screen tests of the teaching views (issue 9): class mode (--teach) through
# the paper's Tables 1-5 in the step-through view, the per-set heat map and
# the miss-rate curves. The real binary ($RDSCOPE) runs in tmux panes fed
# by --script; dumps are compared with golden copies in tests/screen/
# (RDSCOPE_UPDATE_GOLDEN=1 regenerates them: review the diff), and the
# tables' rows with seed 000's own numbers, which no regeneration changes.
# The curve values are compared with `rdscope sweep` on the same
# configurations. Prints "ok - NAME" / "not ok - NAME".
NAME=teach
. "$(dirname "$0")/screen.inc"

# screen NAME ROWS COLS -- ARGS...: run rdscope with the script $T/NAME.keys
# in a tmux pane to its end; 0 when it exited with status 0.
screen() {
	name=$1 rows=$2 cols=$3
	shift 4
	rm -f "$T/$name.rc"
	tmux -L "$SOCK" -f /dev/null new-session -d -s "$name" -x "$cols" -y "$rows" -c "$ROOT" \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR= $RDSCOPE --no-timing --color=never $* \
		--script $T/$name.keys 2>$T/$name.err; echo \$? >$T/$name.rc" || return 1
	i=0
	while [ ! -s "$T/$name.rc" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
	rc=$(cat "$T/$name.rc" 2>/dev/null || echo timeout)
	[ "$rc" = 0 ] || { echo "# $name: exit status $rc"; sed 's/^/# /' "$T/$name.err"; }
	[ "$rc" = 0 ]
}

# row FILE LABEL: the cells of a table row, blanks squeezed ("0 1 2 ...").
row() { sed -n "s|^ $2  *||p" "$1" | head -n 1 | tr -s ' ' | sed 's/ *$//'; }

# want FILE LABEL CELLS: the row reads CELLS, or say what it reads.
want() {
	got=$(row "$1" "$2")
	[ "$got" = "$3" ] && return 0
	echo "# $(basename "$1") $2: got '$got', the paper has '$3'"
	return 1
}

# ---------------------------------------------------------------- class mode
# --teach opens on Table 1, as --help says ("Tables 1-5, step by step");
# every step of Table 2 and Table 5, the last of Tables 1, 3 and 4 (p goes
# back, n on to 5). `wait` lets a new table's requests arrive before the
# keys that step through them.
{
	echo wait
	echo "dump-screen $T/teach_first.txt"
	echo end
	echo "dump-screen $T/teach_t1_end.txt"
	echo n
	echo wait
	for s in 1 2 3 4 5 6 7 8; do
		echo "dump-screen $T/teach_t2_s$s.txt"
		echo right
	done
	echo p
	echo wait
	echo "dump-screen $T/teach_back.txt"
	echo n
	echo wait
	echo n
	echo wait
	echo end
	echo "dump-screen $T/teach_t3_end.txt"
	echo n
	echo wait
	echo end
	echo "dump-screen $T/teach_t4_end.txt"
	echo n
	echo wait
	for s in 1 2 3 4 5; do
		echo "dump-screen $T/teach_t5_s$s.txt"
		echo right
	done
	echo n
	echo "dump-screen $T/teach_last.txt"
} >"$T/teach.keys"
screen teach 24 80 -- --teach
result "teach: rdscope --teach steps through Tables 1-5 (80x24)" $?
ok=0
for g in teach_t2_s1 teach_t2_s2 teach_t2_s3 teach_t2_s4 teach_t2_s5 teach_t2_s6 teach_t2_s7 \
	teach_t2_s8 teach_t1_end teach_t3_end teach_t4_end teach_t5_s1 teach_t5_s2 teach_t5_s3 \
	teach_t5_s4 teach_t5_s5; do
	golden $g || ok=1
done
result "teach: every step of Tables 2 and 5, the last of Tables 1, 3, 4 match their goldens" $ok
# Issue 16: --help promises Tables 1-5, so class mode opens on Table 1 (it
# opened on Table 2); p from Table 2 goes back to Table 1.
sed -n 2p "$T/teach_first.txt" | grep -q '^ Table 1 ' &&
	grep -q 'samples/paper/table1.trc' "$T/teach_first.txt" &&
	sed -n 2p "$T/teach_back.txt" | grep -q '^ Table 1 ' &&
	"$RDSCOPE" --help | grep -q "Tables 1-5, step by step"
result "teach: --teach opens on Table 1, the first of the Tables 1-5 --help names" $?
# Issue 16: one thread is "1 thread", not "(1 threads, ...)".
head -n 1 "$T/teach_first.txt" | grep -q '(1 thread, 7 loads)'
result "teach: the title says (1 thread, 7 loads)" $?

# The paper's rows, column by column (seed 000 Tables 1-5; addresses are
# element indices; Table 1's rows are the cache-line ones).
F=$T/teach_t1_end.txt
want "$F" "cache-line" "0 1 0 2 0 0 1" && want "$F" "distance" "∞ ∞ 1 ∞ 1 0 2" &&
	want "$F" "address" "0 5 3 9 3 3 5"
result "teach: Table 1 as printed (lines 0 1 0 2 0 0 1, distances ∞ ∞ 1 ∞ 1 0 2)" $?
F=$T/teach_t2_s8.txt
want "$F" "instruction" "0 0 0 0 1 1 1 1" && want "$F" "thread" "0 1 2 3 0 1 2 3" &&
	want "$F" "address" "0 2 4 6 1 3 5 7" && want "$F" "cache-line" "0 0 1 1 0 0 1 1" &&
	want "$F" "distance" "∞ 0 ∞ 0 1 0 1 0"
result "teach: Table 2 as printed" $?
F=$T/teach_t3_end.txt
want "$F" "time" "0 1 2 3 4 5 6 7 8 9" && want "$F" "instruction" "0 0 0 0 1 1 1 1 - -" &&
	want "$F" "thread" "0 1 2 3 0 1 2 3 - -" && want "$F" "address" "0 2 4 6 1 3 5 7 - -" &&
	want "$F" "cache-line" "0 0 1 1 0 0 1 1 - -" && want "$F" "cache effect" "- - 0 0 1 1 0 0 1 1" &&
	want "$F" "distance" "∞ ∞ ∞ ∞ 0 1 0 1 - -" &&
	want "$F" "hit/miss" "miss miss miss miss hit hit hit hit - -" &&
	want "$F" "latency" "2 2 2 2 2 2 2 2 - -" && want "$F" "effect at" "2 3 4 5 6 7 8 9 - -"
result "teach: Table 3 as printed, cache effects and all" $?
F=$T/teach_t4_end.txt
want "$F" "time" "0 1 2 3 4 5 6 7" && want "$F" "cache effect" "- - 0 0 1 0 1 0 1 1" &&
	want "$F" "distance" "∞ ∞ ∞ ∞ 0 0 1 0" &&
	want "$F" "hit/miss" "miss miss miss miss hit hit hit hit" &&
	want "$F" "latency" "2 2 2 2 0 0 0 0" && want "$F" "effect at" "2 3 4 5 4 5 6 7"
result "teach: Table 4 as printed (two effects at times 4 and 5)" $?
F=$T/teach_t5_s5.txt
want "$F" "time" "0 1 2 3 4 5 6" && want "$F" "instruction" "0 0 1 0 1 - -" &&
	want "$F" "thread" "0 2 0 2 2 - -" && want "$F" "address" "0 4 1 4 5 - -" &&
	want "$F" "cache-line" "0 1 0 1 1 - -" && want "$F" "cache effect" "- - 0 0 - - 1 1" &&
	want "$F" "distance" "∞ ∞ 0 ∞ ∞ - -" && want "$F" "MSHRs before" "0 1 0 0 1 - -" &&
	want "$F" "hit/miss" "miss cancel hit miss miss - -" &&
	want "$F" "MSHRs used" "1 - 0 1 1 - -" && want "$F" "latency" "2 - 0 2 2 - -" &&
	want "$F" "effect at" "2 - 2 5 6 - -"
result "teach: Table 5 as printed, the cancel included" $?
# Columns are revealed step by step: step 3 of Table 5 shows three.
[ "$(row "$T/teach_t5_s3.txt" time)" = "0 1 2" ] &&
	grep -q 'cancelled: line 1 needs an MSHR and none is free; warp 2 retries at t=3' \
		"$T/teach_t5_s2.txt" &&
	grep -q 'in flight: fills 0→t2' "$T/teach_t5_s2.txt" &&
	grep -q 'Table 5 is the last table of the story' "$T/teach_last.txt"
result "teach: columns revealed one step at a time; a cancel explained" $?

# Class mode needs a terminal and no INPUT of its own.
"$RDSCOPE" --teach samples/paper/table2.trc >/dev/null 2>"$T/t.err"
[ $? -eq 2 ] && grep -q 'class mode brings its own' "$T/t.err"
result "teach: --teach with an INPUT is a usage error" $?
echo | "$RDSCOPE" --teach >/dev/null 2>"$T/t.err"
[ $? -eq 2 ] && grep -q 'needs a terminal' "$T/t.err"
result "teach: --teach outside a terminal says it needs one" $?

# ---------------------------------------------------------------- step-through
# Any trace: a 32-thread warp of uncoalesced loads under the Fermi hash
# (hashed bits marked x), stepping and jumping; the whole cache (v) as a
# grid of sets x ways, at the start and far into the run (: goes to a
# request number or a time), scrolled; every request reachable.
cat >"$T/step.keys" <<KEYS
s
wait
right
dump-screen $T/step_fig3.txt
pagedown
end
dump-screen $T/step_fig3_end.txt
home
v
right
dump-screen $T/step_grid.txt
:
type 30000
enter
dump-screen $T/step_grid_far.txt
down
down
down
dump-screen $T/step_grid_scrolled.txt
:
type t5000
enter
dump-screen $T/step_time.txt
:
type 12x
enter
dump-screen $T/step_goto_bad.txt
esc
dump-screen $T/step_back.txt
KEYS
screen step 24 80 -- builtin:colcopy:64:1024 && ! grep -q 'no key' "$T"/step_*.txt &&
	grep -q 'ways, most recent first' "$T/step_grid.txt"
result "step: the step-through of any request of a trace runs, v and : are its keys" $?
golden step_fig3 && grep -q 'request 2/115750 ' "$T/step_fig3.txt" &&
	grep -q 'x=xor' "$T/step_fig3.txt" && grep -q 'request 115750/115750 ' "$T/step_fig3_end.txt" &&
	grep -q 'none: the last request' "$T/step_fig3_end.txt" &&
	grep -q 'Miss breakdown' "$T/step_back.txt"
result "step: Fermi hash bits, every request to the last (115750), Esc back to the panes" $?
golden step_grid && golden step_grid_far && golden step_grid_scrolled &&
	grep -q 'request 30000/115750 ' "$T/step_grid_far.txt" &&
	grep -q '^ ▸     9  10003  10002  1003c  1003d ' "$T/step_grid_far.txt" &&
	grep -q '^   after  10003  10002  1003c  1003d ' "$T/step_grid_far.txt" &&
	grep -q '^ tag 10012  set 9  offset 64 ' "$T/step_grid_far.txt" &&
	grep -q 'sets 7-17 of 32' "$T/step_grid_scrolled.txt"
result "step: the whole cache at request 2 and 30000 (a window far into the run), scrolled" $?
grep -q '^ t=5000 ' "$T/step_time.txt" && grep -q 'request 18491/115750 ' "$T/step_time.txt" &&
	grep -q "go to: '12x' is not a request number (N) or a time (tN)" "$T/step_goto_bad.txt"
result "step: : goes to a time step (t5000: request 18491); a bad goal is refused" $?
# Nothing cut inside a number: lines end in a whole item or an ellipsis
# (the old "20971; MSHRs" and a queue cut without one).
grep -q '^ in flight: fills .* …; MSHRs 12 of 64, none free$' "$T/step_grid_far.txt" &&
	grep -q '^ ▸ cancelled: line 2097736 needs an MSHR and warp 0 holds all it may; warp 0 …$' \
		"$T/step_grid_far.txt"
result "step: long lines are cut between items with an ellipsis" $?

# More ways than fit in 80 columns: whole cells, then an ellipsis.
cat >"$T/stepw.keys" <<KEYS
s
v
:
type 700
enter
dump-screen $T/step_grid_wide.txt
KEYS
screen stepw 24 80 -- -s l1.hash=xor -s l1.ways=16 builtin:colcopy:64:1024
golden step_grid_wide && grep -q '^ ▸ *[0-9]* .* …' "$T/step_grid_wide.txt"
result "step: a 16-way grid in 80 columns shows the ways that fit and an ellipsis" $?

# ---------------------------------------------------------------- type your own
# a: a typed address sequence is explored at once (the configuration on
# screen kept); O: another input without restarting; errors say why.
cat >"$T/typed.keys" <<KEYS
a
type 0 4x
enter
dump-screen $T/typed_bad.txt
a
type 0 4 16 20 0 512 1024 0 2048 0
enter
dump-screen $T/typed.txt
s
wait
end
dump-screen $T/typed_step.txt
v
dump-screen $T/typed_grid.txt
O
type no/such/input.trc
enter
dump-screen $T/input_bad.txt
O
type sample:paper/table1
enter
dump-screen $T/input.txt
KEYS
screen typed 24 80 -- -p toy-table2 -s l1.hash=mod && ! grep -q 'no key' "$T"/typed*.txt \
	"$T"/input*.txt
result "typed: the typing and opening script runs, a and i are keys" $?
golden typed_bad && golden typed && golden typed_step && golden typed_grid &&
	grep -q "typed: item 2, '4x', is not an address" "$T/typed_bad.txt" &&
	grep -q 'exploring the typed addresses (10 loads)' "$T/typed.txt" &&
	grep -q '^ typed: 0 4 16 20 0 512 1024 0 2048 0 │ request 10/10 ' "$T/typed_step.txt"
result "typed: a typed sequence is modelled at once, stepped through, shown as a grid" $?
"$RDSCOPE" run -q -p toy-table2 -s l1.hash=mod --log "$T/typed.csv" - >/dev/null <<TRC
blocksize: 1 1 1
0 0 0 4
0 0 4 4
0 0 16 4
0 0 20 4
0 0 0 4
0 0 512 4
0 0 1024 4
0 0 0 4
0 0 2048 4
0 0 0 4
TRC
want=$(cut -d, -f12 "$T/typed.csv" | tail -n +2 | tr '\n' ' ' | sed 's/ $//')
got=$(sed -n 's/^ hit\/miss *//p' "$T/typed_step.txt" | tr -s ' ' | sed 's/ $//')
[ -n "$want" ] && [ "$want" = "$got" ]
result "typed: the same outcomes as rdscope run on the same loads ($want)" $?
golden input && grep -q 'open: no/such/input.trc' "$T/input_bad.txt" &&
	grep -q '│ table1 (1 thread, 7 loads)' "$T/input.txt" &&
	grep -q 'opened sample:paper/table1 (7 loads)' "$T/input.txt"
result "typed: O opens another input without restarting; a missing one is refused" $?

# ---------------------------------------------------------------- heat map
# A column-major copy with a 4 KB row stride: under mod every row's line
# falls in the same set at the same time (all misses); the Fermi hash
# spreads them. Baseline pinned on fermi, then l1.hash stepped to mod.
cat >"$T/heat.keys" <<KEYS
m
dump-screen $T/heat_fermi.txt
c
down
down
down
left
left
dump-screen $T/heat_mod_vs_fermi.txt
KEYS
screen heat 24 80 -- builtin:colcopy:64:1024
result "heat: the heat map runs" $?
golden heat_fermi && golden heat_mod_vs_fermi &&
	grep -q 'l1.hash           mod' "$T/heat_mod_vs_fermi.txt" &&
	grep -q 'baseline fermi: misses (hottest 313)' "$T/heat_mod_vs_fermi.txt"
result "heat: fermi, then mod against a fermi baseline, match their goldens" $?
# The transpose sample's row stride (3 lines) is odd: both hashes spread it.
cat >"$T/heatt.keys" <<KEYS
m
dump-screen $T/heat_transpose.txt
KEYS
screen heatt 24 80 -- samples/reference/transpose_n96_b32x4_colread.trc.gz && golden heat_transpose
result "heat: the transpose sample's map matches its golden" $?

# ---------------------------------------------------------------- curves
# Mod hash so that every size is a valid cache; the sweep of l1.ways.
cat >"$T/curves.keys" <<KEYS
g
down
dump-screen $T/curves.txt
dump-curves $T/curves.csv
KEYS
screen curves 24 80 -- -s l1.hash=mod samples/reference/stencil_n64_b16x8.trc.gz
result "curves: the curves view runs" $?
golden curves
result "curves: screen matches its golden" $?
# A big terminal: the chart takes the rows it has, and curves that meet
# show each their own mark side by side (issue 16 item 8).
cat >"$T/curves_big.keys" <<KEYS
g
down
dump-screen $T/curves_big.txt
KEYS
screen curves_big 40 140 -- -s l1.hash=mod samples/reference/stencil_n64_b16x8.trc.gz &&
	golden curves_big && grep -q '[ ─]1248g ' "$T/curves_big.txt" &&
	[ "$(sed -n '/100%/,/  0%/p' "$T/curves_big.txt" | wc -l)" -gt 12 ]
result "curves: a big terminal gets a taller chart and distinct marks where curves meet" $?
# Every latency-free point equals `rdscope sweep` on its configuration
# (requests and misses without latency misses, as counts), and so does
# every point of the timing sweep.
# cols NAME... <CSV: those columns of a sweep CSV by header name; A-B is a
# difference (misses-latency: misses as hardware counts them).
cols() {
	awk -F, -v want="$*" '
		NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; n = split(want, w, " "); next }
		{ line = ""
		  for (k = 1; k <= n; k++) {
			if (split(w[k], ab, "-") == 2) v = $(at[ab[1]]) - $(at[ab[2]]); else v = $(at[w[k]])
			line = line (k > 1 ? "," : "") v
		  }
		  print line }'
}
LF="-s l1.hash=mod -s latency.hit=0 -s latency.miss=0 -s latency.stddev=0 -s l1.mshrs=0 -s l1.mshr_per_warp=0"
ok=0
n=0
grep '^latency-free,' "$T/curves.csv" >"$T/lf.csv"
sizes=$(cut -d, -f4 "$T/lf.csv" | sort -un | tr '\n' ',' | sed 's/,$//')
for w in $(cut -d, -f5 "$T/lf.csv" | sort -un); do
	sz=$(awk -F, -v w="$w" '$5 == w { printf "%s%s", s, $4; s = "," }' "$T/lf.csv")
	"$RDSCOPE" sweep -q --no-timing $LF -s l1.ways="$w" -s l1.size="${sz%%,*}" \
		--vary l1.size="$sz" -f csv \
		samples/reference/stencil_n64_b16x8.trc.gz >"$T/sw.csv" 2>"$T/sw.err" || {
		echo "# sweep for $w ways failed: $(head -n 2 "$T/sw.err")"; ok=1; }
	cols l1.size l1.ways requests misses-latency <"$T/sw.csv" >>"$T/sweep_lf.txt"
done
awk -F, '{ print $4 "," $5 "," $6 "," $7 }' "$T/lf.csv" | sort >"$T/ui_lf.txt"
sort "$T/sweep_lf.txt" >"$T/sweep_lf_sorted.txt"
n=$(wc -l <"$T/ui_lf.txt")
[ "$n" -ge 20 ] && cmp -s "$T/ui_lf.txt" "$T/sweep_lf_sorted.txt" || {
	ok=1; diff "$T/ui_lf.txt" "$T/sweep_lf_sorted.txt" | head -5 | sed 's/^/# /'; }
result "curves: $n latency-free points equal rdscope sweep (sizes $sizes)" $ok
grep '^timing,' "$T/curves.csv" | awk -F, '{ print $3 "," $6 "," $7 }' | sort >"$T/ui_sw.txt"
vals=$(cut -d, -f1 "$T/ui_sw.txt" | sort -n | tr '\n' ',' | sed 's/,$//')
"$RDSCOPE" sweep -q --no-timing -s l1.hash=mod --vary l1.ways="$vals" -f csv \
	samples/reference/stencil_n64_b16x8.trc.gz >"$T/sw2.csv" 2>"$T/sw2.err"
cols l1.ways requests misses-latency <"$T/sw2.csv" | sort >"$T/sweep_sw.txt"
[ "$(wc -l <"$T/ui_sw.txt")" -ge 3 ] && cmp -s "$T/ui_sw.txt" "$T/sweep_sw.txt"
result "curves: the timing sweep of l1.ways ($vals) equals rdscope sweep" $?

# ---------------------------------------------------------------- profile
# The reuse profile view (R): its chart, heat map and estimates; the
# estimates equal `rdscope profile --estimate` on the same geometry; back
# on the panes, the breakdown shows the estimate beside the exact rate; a
# line size edit measures the profile again.
cat >"$T/rprof.keys" <<KEYS
R
dump-screen $T/rprof.txt
esc
dump-screen $T/rprof_back.txt
down
down
right
R
dump-screen $T/rprof_line.txt
KEYS
screen rprof 24 80 -- samples/reference/stencil_n64_b16x8.trc.gz && golden rprof
result "profile: the reuse profile view matches its golden" $?
"$RDSCOPE" profile --estimate -f json samples/reference/stencil_n64_b16x8.trc.gz >"$T/rprof.json" &&
	python3 -c "
import json, sys
e = json.load(open('$T/rprof.json'))['estimates'][0]
print('%.2f %.2f' % ((1 - e['binomial_hit_rate']) * 100, (1 - e['fa_hit_rate']) * 100))" >"$T/rprof_est.txt"
read -r bin fa <"$T/rprof_est.txt"
grep -q "binomial $bin%  fully assoc. $fa%" "$T/rprof.txt" &&
	grep -q "miss rate [0-9.]*% est. $bin%" "$T/rprof_back.txt"
result "profile: the view's estimates ($bin%, $fa%) are rdscope profile --estimate's, the breakdown shows it" $?
learned=$("$RDSCOPE" estimate -f json --method learned samples/reference/stencil_n64_b16x8.trc.gz |
	python3 -c "import json, sys; print('%.2f%%' % (100 * json.load(sys.stdin)['runs'][0]['miss_rate']))")
grep -q "learned $learned" "$T/rprof.txt"
result "profile: the view's learned estimate ($learned) is rdscope estimate --method learned's" $?
"$RDSCOPE" profile --estimate -f json -s l1.line=256 -s l1.hash=mod samples/reference/stencil_n64_b16x8.trc.gz \
	>"$T/rprof2.json" && req=$(python3 -c "
import json; print(json.load(open('$T/rprof2.json'))['profiles'][0]['requests'])") &&
	grep -q "l1.line *256 B" "$T/rprof_line.txt" && grep -q " $req requests" "$T/rprof_line.txt"
result "profile: a line size edit measures the profile again ($req requests at 256 B)" $?

# ---------------------------------------------------------------- generator
# The profile generator (G): the mixture's rows beside the breakdown; a
# peak moved twice (40 -> 45 -> 50 lines) generates the trace again, and
# the explorer's counts are `rdscope run rp:FILE` of the mixture its status
# line names; Esc keeps the generated trace; a peak added and the cold
# share stepped show in the name.
cat >"$T/gen.keys" <<KEYS
G
down
down
down
down
right
right
dump-screen $T/gen.txt
esc
dump-screen $T/gen_back.txt
G
A
up
up
up
up
up
up
right
dump-screen $T/gen_two.txt
KEYS
screen gen 24 80 -- samples/reference/stencil_n64_b16x8.trc.gz && golden gen
result "generator: the generator's pane matches its golden" $?
printf 'maxrd 64\ncold 0.05\npeak 50 1 2\n' >"$T/mix50.txt"
"$RDSCOPE" run -f json "rp:$T/mix50.txt" | python3 -c "
import json, sys
c = json.load(sys.stdin)['runs'][0]['counts']
print(c['hits'], c['compulsory'], c['associativity'])" >"$T/mix50.counts"
read -r hits comp assoc <"$T/mix50.counts"
grep -q "generated: maxrd 64; cold 0.05; peak 50 1 2 " "$T/gen.txt" &&
	grep -q "hits *$hits " "$T/gen.txt" && grep -q "compulsory *$comp " "$T/gen.txt" &&
	grep -q "assoc *$assoc " "$T/gen.txt" && grep -q "Parameters" "$T/gen_back.txt" &&
	grep -q "generated: maxrd 64; cold 0.05; peak 50 1 2 " "$T/gen_back.txt"
result "generator: the explorer's counts are rdscope run rp:FILE's ($hits hits, $comp compulsory, $assoc assoc)" $?
grep -q "generated: maxrd 64; cold 0.06; peak 50 1 2; peak 57 1 2 " "$T/gen_two.txt"
result "generator: a peak added, the cold share stepped" $?

# ---------------------------------------------------------------- count
# The count view (H): HayStack's counts of a description beside the
# parameters; > doubles the problem size and counts again; the numbers
# are rdscope count's at the configured line and size.
cat >"$T/count.keys" <<KEYS
H
dump-screen $T/count.txt
>
dump-screen $T/count2.txt
KEYS
screen count 34 100 -- sample:haystack/gemm && golden count
result "count view: the screen matches its golden" $?
"$RDSCOPE" count -f json -s l1.line=128 --levels 16K -D D=128 sample:haystack/gemm >"$T/cnt.json" &&
	python3 -c "
import json, sys
d = json.load(open('$T/cnt.json'))
b = [x for x in d['references'] if x['reference'] == 'B[k][j]'][0]
print('%.2f%%' % (100 * (d['compulsory'] + d['capacity'][0]) / d['accesses']), b['capacity'][0])" >"$T/cnt.txt"
read -r pct bcap <"$T/cnt.txt"
grep -q '\[D = 128\]' "$T/count2.txt" && grep -q "at 16K (l1.size): $pct misses" "$T/count2.txt" &&
	grep -q ' 1536 lines of 128 bytes' "$T/count2.txt" &&
	grep -Eq "B\[k\]\[j\] +2\.1M +512 +65\.0k" "$T/count2.txt" && [ "$bcap" = 65024 ]
result "count view: > doubles D and counts again; its rate ($pct) and rows are rdscope count's" $?
