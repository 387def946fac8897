#!/bin/sh
# Partial output on error (issue 24, class 10): inputs are opened and
# checked before output starts; an error found later (a malformed line in
# a later kernel) leaves standard output well-formed, and a file output is
# not written at all.
. "$(dirname "$0")/common.inc"
json_valid() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
IN=samples/paper/table2.trc

timeout 20 "$R" run -q -f json "$IN" "$T/missing.trc" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ ! -s "$T/out" ] && grep -q "missing.trc: No such file or directory" "$T/err"
check "run -f json OK MISSING: refused before any output" $?

timeout 20 "$R" sweep -q -p toy-table2 --vary l1.ways=1,2 -f json "$IN" "$T/missing.trc" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ ! -s "$T/out" ] && grep -q "missing.trc: No such file or directory" "$T/err"
check "sweep -f json OK MISSING: refused before any output" $?

timeout 20 "$R" run -q --log "$T/log.csv" samples/traces/tiny-nvbit.nvbit >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ ! -s "$T/out" ] && [ ! -e "$T/log.csv" ] && grep -q "more than one kernel" "$T/err"
check "run --log on a two-kernel input: refused before any result" $?

# Two good kernels, then a third whose access line is malformed.
N=samples/traces/tiny-nvbit.nvbit
{
	cat "$N"
	grep LAUNCH "$N" | head -n 1 | sed 's/grid launch id 0/grid launch id 9/; s/copy2d/third/'
	echo 'MEMTRACE: CTX 0x00005581b6f6d4a0 - grid_launch_id 9 - CTA 0,0,0 - warp 4 - LDG.E - 0xZZ'
} >"$T/three.nvbit"
timeout 20 "$R" run -q -f json "$T/three.nvbit" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && json_valid "$T/out" && grep -q "three.nvbit:.*0xZZ" "$T/err"
check "a malformed third kernel, JSON to standard output: still valid JSON, exit 2" $?
timeout 20 "$R" run -q -f json -o "$T/res.json" "$T/three.nvbit" >/dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$T/res.json" ] && [ -z "$(ls "$T" | grep '\.tmp\.')" ]
check "the same into -o FILE: no file, no temporary left" $?
# A sweep whose second input fails late: standard output is still valid
# JSON (it was cut after the first input's runs).
timeout 60 "$R" sweep -q -f json --vary l1.ways=1,2 -p toy-table2 samples/paper/table1.trc \
	tests/bad/dir2-line3.trc >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && json_valid "$T/out" && grep -q "dir2-line3.trc:3:" "$T/err"
check "a sweep failing on a later input, JSON to standard output: still valid JSON, exit 2" $?
# --by with a point of the reference profile: that point is skipped (the
# profile has no per-site counts), the document stays whole.
timeout 60 "$R" sweep -q -f json --by site --vary model=paper,reference-2013 \
	sample:polybench/gemm:small >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && json_valid "$T/out" && grep -q '"skipped":"--by: the reference-2013 profile' "$T/out" &&
	grep -q 'point 1 (model=reference-2013) skipped' "$T/err"
check "sweep --by site over model=paper,reference-2013: the reference point skipped, valid JSON" $?
