#!/bin/sh
# Unclear or misleading errors and silent choices (issue 39, class 8):
# each case says what is wrong in words a user understands, with exit 2
# for bad input, or does the right thing and says so.
. "$(dirname "$0")/common.inc"
IN=samples/paper/table2.trc
# said NAME MESSAGE CMD...: exit 2 and exactly that message.
said() {
	name=$1 msg=$2
	shift 2
	timeout 60 "$R" "$@" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(cat "$T/err")" = "$msg" ] ||
		{ echo "# exit $rc"; head -c 600 "$T/err" | sed 's/^/# /'; echo; false; }
	check "$name" $?
}
pre() { printf 'format = "rdscope-preset";\nversion = 1;\n%s\n' "$2" >"$1"; }

# -------------------------------------------------- numbers of 300 digits
said "-s latency.stddev=1e300: the sum as a number, not 300 digits" \
	"rdscope: -s latency.stddev=1e300: latency.miss + 8 * latency.stddev must be at most 1073741824 (got 8e+300)" \
	run -q -s latency.stddev=1e300 "$IN"
pre "$T/sd.cfg" 'latency = { stddev = 1e300; };'
timeout 20 "$R" check "$T/sd.cfg" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "sd.cfg:3: .*(got 8e+300)" "$T/err" && ! grep -Eq '[0-9]{20}' "$T/err"
check "a preset's latency.stddev = 1e300: at its line, no 300-digit number" $?
M=samples/measured/h100/fig3-copy-ncu.csv
K=samples/measured/h100/colcopy-c0.kdesc
timeout 20 "$R" calibrate --measured "$M" --fit latency.stddev --range latency.stddev=0:1e300:1 "$K" \
	>/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q ': 1e+300 values, more than a grid may have' "$T/err" && ! grep -Eq '[0-9]{20}' "$T/err"
check "calibrate --range 0:1e300:1: the count of values as a number, not 300 digits" $?
said "sweep --vary l1.size=1e300x: too large, not 'not a whole number'" \
	"rdscope: --vary l1.size=1e300x: 1e300 x 16384 = 1.6384e+304, more than l1.size takes" \
	sweep --vary l1.size=1e300x "$IN"

# ------------------------------------------ integers over 32 bits, in words
pre "$T/rm.cfg" 'dram = { row_mask = 0xFFFFFFFF0000; bank_mask = 0xE000; };'
timeout 20 "$R" preset -p "$T/rm.cfg" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q 'row_mask = 281474976645120L;' "$T/out"
check "dram.row_mask = 0xFFFFFFFF0000: read as written (was 'got -65536')" $?
said "-s dram.row_mask=0xFFFFFFFF0000: the overlap with bank_mask said, not '-65536'" \
	"rdscope: -s dram.row_mask=0xFFFFFFFF0000: dram.bank_mask shares bit 16 with dram.row_mask (the masks must not overlap)" \
	run -q -s dram.enable=1 -s dram.row_mask=0xFFFFFFFF0000 "$IN"
pre "$T/hex.cfg" 'l1 = { size = 0x100000000; };'
said "l1 = { size = 0x100000000; }: the value at its line (was 'got 0')" \
	"rdscope: $T/hex.cfg:3: l1.size: not an unsigned integer below 2^32 (got '4294967296')" \
	check "$T/hex.cfg"

# ------------------------------------------------ count and the keys it reads
D=samples/effects/conflicts.kdesc
timeout 20 "$R" count -s l1.size=5 "$D" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q '^accesses' "$T/out" &&
	grep -qx "rdscope: note: count uses only l1.line of the model's keys (its caches are --levels, fully associative LRU): -s l1.size=5 has no effect" "$T/err" &&
	! grep -q 'l1.ways' "$T/err"
check "count -s l1.size=5: counted, the key said to have no effect (not 'l1.ways must be >= 1')" $?
timeout 20 "$R" count -s l1.ways=3 -s l1.line=32 "$D" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q '32-byte lines' "$T/out"
check "count -s l1.ways=3 -s l1.line=32: counted with 32-byte lines" $?
said "count -s l1.line=3: the line size refused, as the one key count reads" \
	"rdscope: l1.line: must be a power of two (got 3)" count -s l1.line=3 "$D"

# ----------------------------------------------- long C++ names in ncu files
# A kernel whose demangled template signature runs past 1 KB (and one of
# 5 KB) beside the others: the file is read; the name is shortened in the
# note that no input has it.
awk -v n=1100 'BEGIN { s = "void ns::kern<"; for (i = 0; i < n; i++) s = s "T"; print s ">(float *, int)" }' >"$T/n1"
awk -v n=5000 'BEGIN { s = "void ns::kern<"; for (i = 0; i < n; i++) s = s "U"; print s ">(float *, int)" }' >"$T/n2"
{
	cat "$M"
	for f in n1 n2; do
		printf '"%s","1","x","h","%s","1","7","(1, 1, 1)","(1, 1, 1)","0","9.0","s","l1tex__t_sector_hit_rate.pct","%%","50"\n' \
			"$([ $f = n1 ] && echo 900 || echo 901)" "$(cat "$T/$f")"
	done
} >"$T/long.csv"
timeout 60 "$R" validate --measured "$T/long.csv" "$K" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q '^cc0_h128 ' "$T/out" &&
	grep -q "no kernel named 'void ns::kern<TTT.*TTT>(float \*, int)' (1129 bytes) among the inputs" "$T/err" &&
	grep -q "(5029 bytes)" "$T/err" && [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/err")" -lt 400 ]
check "ncu CSV with 1.1 KB and 5 KB C++ signatures: read; their names shortened in the note" $?

# -------------------------------------------------- --plot-hist of no run
timeout 60 "$R" sweep -s l1.hash=xor --vary l1.ways=1,2,4,8 --plot "$T/p.svg" --plot-hist 5 "$IN" \
	>/dev/null 2>"$T/err"
[ $? -eq 0 ] && [ -s "$T/p.svg" ] &&
	grep -qx 'rdscope: warning: --plot-hist: no run 5 among the runs plotted (0 to 3): its histogram is not drawn' "$T/err"
check "sweep --plot-hist 5 on 4 runs: says run 5 is not there" $?
timeout 60 "$R" run --plot "$T/p.svg" --plot-hist 0,2,3 "$IN" >/dev/null 2>"$T/err"
[ $? -eq 0 ] && grep -qx 'rdscope: warning: --plot-hist: no runs 2, 3 among the runs plotted (0): their histograms are not drawn' "$T/err"
check "run --plot-hist 0,2,3 on 1 run: says runs 2 and 3 are not there" $?

# ------------------------------------------------------ rp: options twice
printf 'rd,fraction\n-1,0.01\n100,0.99\n' >"$T/rp.csv"
said "rp:f,length=10,length=20: refused (the last one was kept silently)" \
	"rdscope: rp:$T/rp.csv,length=10,length=20: length=10 and length=20: length given twice (give it once)" \
	run -q "rp:$T/rp.csv,length=10,length=20"
said "rp:f,seed=1,threads=2,seed=3: refused" \
	"rdscope: rp:$T/rp.csv,seed=1,threads=2,seed=3: seed=1 and seed=3: seed given twice (give it once)" \
	run -q "rp:$T/rp.csv,seed=1,threads=2,seed=3"
timeout 60 "$R" run -q "rp:$T/rp.csv,length=20" >/dev/null 2>"$T/err"
[ $? -eq 0 ] && [ "$(grep -c 'cold fills forced' "$T/err")" -eq 1 ]
check "rp: its note on forced cold fills said once (was twice)" $?

# --------------------------------------------- calibrate -o with one kernel
timeout 120 "$R" calibrate --measured "$M" --fit l1.ways --range l1.ways=1,2,4 --kernel cc0_h128 \
	-o "$T/cal.cfg" "$K" >/dev/null 2>"$T/err"
[ $? -eq 0 ] && ! grep -q 'leave-one-out nan' "$T/cal.cfg" &&
	grep -q 'over 1 kernel; no leave-one-out: it needs two kernels with a measurement' "$T/cal.cfg" &&
	timeout 20 "$R" check "$T/cal.cfg" >/dev/null 2>&1
check "calibrate -o with one kernel: no 'leave-one-out nan' in the preset, said why" $?
