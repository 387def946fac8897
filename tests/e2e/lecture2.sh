#!/bin/sh
# Screen tests of issue 40 ("in front of a class, second round"): what a
# lecturer meets after `make run` with the README only. The real binary
# ($RDSCOPE) runs in tmux panes fed by --script; dumps are compared with
# golden copies in tests/screen/ (RDSCOPE_UPDATE_GOLDEN=1 regenerates
# them: review the diff) and checked for the lines that matter. Prints
# "ok - NAME" / "not ok - NAME".
NAME=lecture2
. "$(dirname "$0")/screen.inc"

# run NAME ROWS COLS ARGS...: the script $T/NAME.keys to its end.
run() {
	n=$1 r=$2 c=$3
	shift 3
	screen "$n" "$r" "$c" -- --no-timing --color=never --script "$T/$n.keys" "$@"
}

# ---------------------------------------------------------------- r, u
# Item 6: another input (O, a) brings no configuration: r goes back to the
# one the explorer started with (the hash the first demo changed comes
# back), u through the edits made before the input was opened.
keys reset <<EOF
wait
down
down
down
left
wait
O
type sample:effects/conflicts
enter
wait
dump-screen $T/reset_opened.txt
r
wait
dump-screen $T/reset_r.txt
EOF
run reset 30 100 &&
	grep -q 'l1.hash  *xor' "$T/reset_opened.txt" && grep -q 'conflicts' "$T/reset_opened.txt" &&
	grep -q 'l1.hash  *fermi' "$T/reset_r.txt" && ! grep -q 'already the starting' "$T/reset_r.txt" &&
	grep -q 'conflicts' "$T/reset_r.txt"
result "r after O: the explorer's starting configuration (the hash back to fermi)" $?

keys undo <<EOF
wait
down
down
down
left
wait
a
type 0 4096 8192 12288 16384 0
enter
wait
dump-screen $T/undo_typed.txt
u
wait
dump-screen $T/undo_u.txt
EOF
run undo 30 100 &&
	grep -q 'l1.hash  *fermi' "$T/undo_u.txt" && grep -q 'l1.hash  *xor' "$T/undo_typed.txt" && ! grep -q 'nothing to undo' "$T/undo_u.txt" &&
	grep -q 'typed' "$T/undo_u.txt"
result "u after a: the edit made before the typed addresses is undone" $?

# ---------------------------------------------------------------- H
# Item 9: H on an input that is not a kernel description says why in its
# pane at once (it said "counting..." for ever, the reason only on the
# status line until the next key), and typed addresses or a generated
# trace are not named as missing files ("typed: 0 4096: No such file").
keys count_fig3 <<EOF
H
wait
dump-screen $T/count_fig3.txt
EOF
run count_fig3 30 100 && golden count_fig3 &&
	grep -q 'Exact counts (no count)' "$T/count_fig3.txt" &&
	grep -q 'No count: builtin:fig3: not a kernel description' "$T/count_fig3.txt" &&
	! grep -q 'counting every access' "$T/count_fig3.txt"
result "H on builtin:fig3: the pane says why there is no count" $?

keys count_typed <<EOF
wait
a
type 0 4096 8192
enter
wait
H
wait
dump-screen $T/count_typed.txt
esc
T
L
wait
dump-screen $T/sources_typed.txt
EOF
run count_typed 30 100 &&
	grep -q 'No count: the typed addresses are not a kernel' "$T/count_typed.txt" &&
	! grep -q 'No such file' "$T/count_typed.txt" && ! grep -q 'counting every' "$T/count_typed.txt" &&
	! grep -q 'No such file' "$T/sources_typed.txt"
result "H after a: the typed addresses are not a description, not a missing file" $?

keys count_gen <<EOF
wait
G
wait
H
wait
dump-screen $T/count_gen.txt
EOF
run count_gen 30 100 &&
	grep -q "No count: the generated trace's loads are not a kernel" "$T/count_gen.txt" &&
	! grep -q 'No such file' "$T/count_gen.txt"
result "H on the generator's trace: not a description, not a missing file" $?

# ---------------------------------------------------------------- compare
# Item 4: compare mode's histogram axis keeps its unit. Pinned fig3, then
# 32 MSHRs: the largest change is 10,400 requests in one bin; the axis
# said "+10.4" and "-10.4" (21,000 read "+21.0"), the k cut to the axis's
# width.
keys compare_axis <<EOF
wait
c
wait
down
down
down
down
left
wait
dump-screen $T/compare_axis.txt
EOF
run compare_axis 30 100 && golden compare_axis &&
	grep -q '││+10k ' "$T/compare_axis.txt" && grep -q '││-10k ' "$T/compare_axis.txt" &&
	grep -q 'l1.mshrs  *32' "$T/compare_axis.txt"
result "compare: the histogram's axis says +10k and -10k, not +10.4" $?

# ---------------------------------------------------------------- a
# Item 7: typed addresses under GPU timing. Under the mod hash the five
# lines 0 ... 16384 share set 0; with latency.miss 100 the second 0, 4096
# and 8192 come while lines are in flight (2 hits), the textbook (latency
# 0) has none. The screen says so when the sequence opens (status line),
# atop the step-through and in i; the numbers are the breakdown's under
# each timing. Under fermi these addresses' answer has no latency in it:
# nothing is said.
SEQ="0 4096 8192 12288 16384 0 4096 8192"
keys typed_timing <<EOF
wait
a
type $SEQ
enter
wait
dump-screen $T/typed_timing.txt
s
wait
dump-screen $T/typed_timing_step.txt
i
dump-screen $T/typed_timing_info.txt
EOF
keys typed_free <<EOF
wait
a
type $SEQ
enter
wait
dump-screen $T/typed_free.txt
s
wait
dump-screen $T/typed_free_step.txt
EOF
cp "$T/typed_free.keys" "$T/typed_fermi.keys"
sed -i "s|typed_free|typed_fermi|g" "$T/typed_fermi.keys"
run typed_timing 30 100 -s l1.hash=mod && golden typed_timing_step &&
	run typed_free 30 100 -s l1.hash=mod -s latency.miss=0 -s latency.stddev=0 &&
	grep -q 'hits  *2 ' "$T/typed_timing.txt" && grep -q 'hits  *0 ' "$T/typed_free.txt" &&
	tr '\n' ' ' <"$T/typed_timing.txt" | grep -q 'under GPU timing: 2 hits; latency 0 gives the textbook.s  *stack  *distances (0 hits)' &&
	grep -q "GPU timing, latency.miss 100: latency 0 gives the textbook's stack distances" "$T/typed_timing_step.txt" &&
	grep -q '(2 hits here, 0 with latency 0)' "$T/typed_timing_info.txt" &&
	! grep -q 'GPU timing' "$T/typed_free.txt" "$T/typed_free_step.txt"
result "a under GPU timing: the screen says latency 0 gives the textbook's distances (2 hits, 0)" $?
run typed_fermi 30 100 && grep -q 'hits  *3 ' "$T/typed_fermi.txt" &&
	! grep -q 'GPU timing' "$T/typed_fermi.txt" "$T/typed_fermi_step.txt"
result "a where latency changes nothing (fermi): no timing note" $?

# ---------------------------------------------------------------- i on fig3
# Item 2: the first screen's own explanation agrees with fig3's numbers.
# i suggested l1.hash mod then xor, under which fig3's MSHR misses become
# capacity misses (16 % to 88.5 %) against "capacity: only a bigger cache
# helps"; it said fewer MSHRs make latency misses fall (fig3 has none).
# Now the hash's demo is the conflicts sample, the capacity class says the
# order counts too, and the MSHR paragraph's fig3 numbers are run's.
keys info_fig3 <<EOF
i
dump-screen $T/info_fig3_1.txt
pagedown
dump-screen $T/info_fig3_2.txt
pagedown
dump-screen $T/info_fig3_3.txt
EOF
counts() { # ARGS...: hits capacity mshr latency associativity of run's first result
	"$RDSCOPE" run -f json "$@" | python3 -c "
import json, sys
c = json.load(sys.stdin)['runs'][0]['counts']
print(c['hits'], c['capacity'], c['mshr'], c['latency'], c['associativity'])"
}
read -r h64 cap64 m64 lat64 a64 <<EOF
$(counts builtin:fig3)
EOF
read -r h16 cap16 m16 lat16 a16 <<EOF
$(counts -s l1.mshrs=16 builtin:fig3)
EOF
read -r hmod capmod mmod latmod amod <<EOF
$(counts -s l1.hash=mod builtin:fig3)
EOF
read -r hcm capcm mcm latcm acm <<EOF
$(counts -s l1.hash=mod sample:effects/conflicts)
EOF
run info_fig3 40 120 && cat "$T"/info_fig3_[123].txt | sed 's/│//g' | tr -s ' \n' '  ' >"$T/info_fig3.txt" &&
	grep -q "make run's fig3 has $h64 hits with 64 MSHRs, $h16 with 16" "$T/info_fig3.txt" &&
	[ "$h64" = 13 ] && [ "$h16" = 20974 ] && [ "$m16" -lt "$m64" ] && [ "$lat64" = 0 ] &&
	grep -q 'on make run.s fig3, l1.hash mod turns MSHR misses into capacity misses' "$T/info_fig3.txt" &&
	[ "$capmod" -gt "$cap64" ] && [ "$mmod" -lt "$m64" ] && [ "$amod" -lt 100 ] &&
	grep -q 'O opens sample:effects/conflicts, then try l1.hash mod and fermi' "$T/info_fig3.txt" &&
	[ "$acm" -gt 0 ] && ! grep -q 'only a bigger cache helps' "$T/info_fig3.txt" &&
	! grep -q 'try l1.hash mod, then xor' "$T/info_fig3.txt"
result "i on fig3 says what fig3 shows (hits $h64 -> $h16 at 16 MSHRs; mod: capacity $cap64 -> $capmod, mshr $m64 -> $mmod)" $?

# The lecturer's guide's demos (man/rdscope-teaching.7, where the README's
# demos moved) say the same of fig3: MSHR misses turn into hits (run's
# numbers at 64, 16 and 8 MSHRs), not latency misses (it has none).
read -r h8 cap8 m8 lat8 a8 <<EOF
$(counts -s l1.mshrs=8 builtin:fig3)
EOF
fmt() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
tr '\n' ' ' <man/rdscope-teaching.7 | tr -s ' ' >"$T/readme.txt"
grep -q "where MSHR misses turn into hits: $h64 hits with 64 MSHRs, $(fmt "$h16") with 16, $(fmt "$h8") with 8; it has no latency misses" "$T/readme.txt" &&
	[ "$lat64" = 0 ] && [ "$lat16" = 0 ] && ! grep -q 'where latency misses turn into hits' "$T/readme.txt"
result "rdscope-teaching.7: fig3's MSHR misses turn into hits ($h64, $(fmt "$h16"), $(fmt "$h8")), it has no latency misses" $?
