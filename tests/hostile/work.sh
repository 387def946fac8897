#!/bin/sh
# Programs that never finish (issue 24, class 3): the total work of a
# kernel description (statements and loop iterations over all threads and
# launches) is bounded, with a message naming the limit and how to set
# another (RDSCOPE_MAX_STEPS). Lowered here so each case ends in
# milliseconds; one case runs into the default limit.
. "$(dirname "$0")/common.inc"
# desc FILE BLOCK BODY [LAUNCHES]: a one-kernel description.
desc() {
	{
		printf '%s\n' 'format = "rdscope-kernel";' 'version = 1;' \
			'arrays = { A = { elem = 4; dims = [1000]; }; };' \
			'kernels = ( { name = "k";' '  grid = [1];' "  block = [$2];" "  body = ( $3 );" '} );'
		[ $# -gt 3 ] && printf 'launches = ( %s );\n' "$4"
	} >"$1"
}
LOOP='{ for = "i = 0; i < 268435456; i++"; do = ( { for = "j = 0; j < 268435456; j++"; do = ( "x = i + j" ); } ); }'
desc "$T/nested.kdesc" 1 "$LOOP"
RDSCOPE_MAX_STEPS=1000000 timeout 20 "$R" run -q "$T/nested.kdesc" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "nested.kdesc:7: .*more than 1000000 steps .*RDSCOPE_MAX_STEPS" "$T/err"
check "two nested loops of 2^28 iterations: refused at the step limit, exit 2" $?
desc "$T/grid.kdesc" 1024 '{ for = "i = 0; i < 268435456; i++"; do = ( "x = i" ); }'
sed -i 's/grid = \[1\]/grid = [65536]/' "$T/grid.kdesc"
RDSCOPE_MAX_STEPS=1000000 timeout 20 "$R" run -q "$T/grid.kdesc" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "more than 1000000 steps" "$T/err"
check "65536 x 1024 threads, one long loop each: refused at the step limit" $?
desc "$T/launches.kdesc" 32 '{ for = "i = 0; i < 1000; i++"; do = ( "x = i" ); }' \
	'{ for = "a = 0; a < 64; a++"; do = ( { for = "b = 0; b < 64; b++"; do = ( "k" ); } ); }'
RDSCOPE_MAX_STEPS=1000000 timeout 60 "$R" run -q -f csv "$T/launches.kdesc" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "more than 1000000 steps .*over all threads and launches" "$T/err"
check "nested launches loops: the limit spans the launches, refused" $?
# Within the limit the same kind of program runs.
desc "$T/small.kdesc" 32 '{ for = "i = 0; i < 100; i++"; do = ( "load A[i]" ); }'
RDSCOPE_MAX_STEPS=10000 timeout 20 "$R" run -q "$T/small.kdesc" >/dev/null 2>&1
check "a kernel within the limit (6432 steps of 10000) runs" $?
# The default limit stops the two nested loops on its own (in about 15 s
# here; under sanitizers a few times that).
timeout 600 "$R" run -q "$T/nested.kdesc" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "more than 1073741824 steps" "$T/err"
check "the default limit (2^30 steps) ends the nested loops" $?
