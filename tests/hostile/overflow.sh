#!/bin/sh
# Signed overflow in descriptions (issue 39, item 6): 9223372036854775807 +
# threadIdx.x wrapped to A[-1023] (or, taken modulo the size, to a silent
# A[0]), abs(-2^63) was accepted, loops that wrap at INT64_MAX spun until
# the iteration cap, and UBSan saw signed overflow in the runner's trip
# counts. Every +, -, *, unary -, abs, / and << of an expression is checked
# now, in the tree evaluator (folding, launches, dims) and in the compiled
# code (kernel bodies) alike: exit 2 with file:line and what overflowed.
# A loop whose step leaves its variable as it was, and whose body changes
# nothing the loop reads, is an error at once (issue 39, item 7). Each run
# has a time limit: spinning to a cap is a failure.
. "$(dirname "$0")/common.inc"
# kd BODY [BLOCK] [PARAMS] [DIMS]: $T/d.kdesc, a one-kernel description;
# BODY is on line 6.
kd() {
	printf '%s\n' 'format = "rdscope-kernel";' 'version = 1;' "params = { ${3:-N = 16;} };" \
		"arrays = { A = { elem = 4; dims = [${4:-\"1024\"}]; }; C = { elem = 4; }; };" \
		"kernels = ( { name = \"k\"; grid = [1]; block = [${2:-1}];" "  body = ( $1 ); } );" \
		>"$T/d.kdesc"
}
# refused NAME MESSAGE-PART CMD...: exit 2 within 10 s with MESSAGE-PART in
# the error (file:line included by the caller's pattern), and no sanitizer
# report.
refused() {
	name=$1 msg=$2
	shift 2
	timeout 10 "$R" "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	[ $rc -eq 2 ] && grep -q -- "$msg" "$T/err" && ! grep -q "runtime error" "$T/err"
	check "$name" $?
}
# taken NAME ACCESSES CMD: CMD (run or count) takes $T/d.kdesc within 10 s
# and counts ACCESSES accesses.
taken() {
	timeout 10 "$R" "$3" -q -f json "$T/d.kdesc" >"$T/out" 2>"$T/err"
	[ $? -eq 0 ] && grep -q "\"accesses\":$2," "$T/out" && ! grep -q "runtime error" "$T/err"
	check "$1" $?
}
D="$T/d.kdesc"
AT="d.kdesc:6: kernel k, block (0,0,0)"

# The issue's case: the sum wraps at thread 1 (it was A[0], silently).
kd '"load A[(9223372036854775807 + threadIdx.x) % 1024]"' 1024
for cmd in run count; do
	refused "$cmd: 9223372036854775807 + threadIdx.x overflows at thread 1, said at file:line" \
		"$AT thread (1,0,0): integer overflow: a sum beyond the 64-bit range" $cmd -q "$D"
done
refused "run -p hopper-h100 (a kernel in parts): the same error" \
	"$AT thread (1,0,0): integer overflow: a sum" run -q -p hopper-h100 "$D"
kd '"load C[(9223372036854775807 + threadIdx.x) / 1048576]"' 1024
refused "an array without dims: the sum still overflows (was C[-2^63])" \
	"$AT thread (1,0,0): integer overflow: a sum" run -q "$D"
# each operator
kd '"load A[(-9223372036854775807 - threadIdx.x - threadIdx.x) % 1024 + 1023]"' 4
refused "a difference beyond 64 bits" "$AT thread (1,0,0): integer overflow: a difference" run -q "$D"
kd '"load A[(threadIdx.x * 4611686018427387904) % 1024]"' 4
refused "a product beyond 64 bits" "$AT thread (2,0,0): integer overflow: a product" run -q "$D"
kd '"load A[(threadIdx.x << 62) % 1024]"' 4
refused "a left shift beyond 64 bits" "$AT thread (2,0,0): integer overflow: a left shift" run -q "$D"
kd '"load A[-(N - 9223372036854775807 - 17) % 1024]"'
refused "-(-2^63)" "$AT thread (0,0,0): integer overflow: -(-9223372036854775808)" run -q "$D"
kd '"load A[((N - 9223372036854775807 - 17) / -1) % 1024]"'
refused "-2^63 / -1" "$AT thread (0,0,0): integer overflow: -9223372036854775808 / -1" run -q "$D"
kd '"load A[abs(N - 9223372036854775807 - 17) % 1024]"'
for cmd in run count; do
	refused "$cmd: abs(-2^63) from a parameter: refused (was accepted)" \
		"$AT thread (0,0,0): integer overflow: abs(-9223372036854775808)" $cmd -q "$D"
done
kd '"load A[abs(-9223372036854775807 - 1) % 1024]"'
refused "abs(-2^63) written as constants: refused when read, at file:line" \
	"d.kdesc:6: kernel k: body\[0\]: integer overflow: abs(-9223372036854775808)" count -q "$D"
kd '"load A[(9223372036854775807 + 1) % 1024]"'
refused "9223372036854775807 + 1 written as constants: refused when read" \
	"d.kdesc:6: kernel k: body\[0\]: integer overflow: a sum" run -q "$D"
# a subscript that is a variable plus or minus a constant (read without
# running its code)
kd '"t = threadIdx.x - 9223372036854775800", "load A[t - 10]"'
refused "t - 10 at t = -2^63 + 8: a difference beyond 64 bits (was A[2^63 - 2])" \
	"$AT thread (0,0,0): integer overflow: a difference" run -q "$D"
kd '"t = 9223372036854775800 + threadIdx.x", "load C[t + 10]"'
refused "t + 10 at t = 2^63 - 8: a sum beyond 64 bits" \
	"$AT thread (0,0,0): integer overflow: a sum" run -q "$D"
kd '"t = -9223372036854775807 - 1 + threadIdx.x", "load A[t - (-9223372036854775807 - 1)]"' 4
taken "t - (-2^63) at t = -2^63 + threadIdx.x: 0..3, no false overflow" 4 count
# the tree evaluator (dims, grid) says what the compiled code says
kd '"load A[0]"' 1 'N = 16;' '"N * 4611686018427387904"'
refused "dims = N * 2^62: the overflow named (not a wrapped size)" \
	"d.kdesc:4: arrays.A.dims\[0\]: integer overflow: a product" count -q "$D"
kd '"load A[(N * 4611686018427387904) % 1024]"'
refused "the same product in a subscript: the same words" \
	"$AT thread (0,0,0): integer overflow: a product" run -q "$D"
# values near the limits that do not overflow are taken
kd '"load A[(9223372036854775807 - threadIdx.x) % 1024], A[((-9223372036854775807 - 1 + threadIdx.x) % 1024 + 1024) % 1024]"' 1024
taken "9223372036854775807 - threadIdx.x and -2^63 + threadIdx.x: no false overflow" 2048 count

# Loops at INT64_MAX: an error at the step that overflows, not a spin.
kd '{ for = "i = 9223372036854775800; i <= 9223372036854775807; i++"; do = ( "load A[i - 9223372036854775800]" ); }'
for cmd in run count; do
	refused "$cmd: i <= INT64_MAX; i++: the eighth step overflows (spun to the cap)" \
		"$AT thread (0,0,0): integer overflow: a sum" $cmd -q "$D"
done
kd '{ for = "i = -9223372036854775800; i >= -9223372036854775807 - 1; i--"; do = ( "load A[i + 9223372036854775807 + 1]" ); }'
for cmd in run count; do
	refused "$cmd: i >= INT64_MIN; i--: the step overflows" \
		"$AT thread (0,0,0): integer overflow: a difference" $cmd -q "$D"
done
kd '{ for = "i = 1; i != 0; i *= 3"; do = ( "load A[i % 1024]" ); }'
refused "i *= 3 until 0 (never, it wrapped until the cap): overflows at 3^40" \
	"$AT thread (0,0,0): integer overflow: a product" run -q "$D"
kd '{ for = "i = 0; i >= 0; i += 4611686018427387904"; do = ( "load A[i % 1024]" ); }'
refused "i >= 0; i += 2^62 (ended by wrapping to -2^63): overflows" \
	"$AT thread (0,0,0): integer overflow: a sum" run -q "$D"
# loops of loads run by strides (run) or by lines (count), whose step or
# index overflows only at the last iterations
kd '{ for = "i = 0; i < 16; i = i + 9223372036854775800 - 9223372036854775799"; do = ( "load A[i]" ); }'
for cmd in run count; do
	refused "$cmd: a step whose sum overflows from i = 8 (i + (2^63 - 8) - (2^63 - 9)): refused" \
		"$AT thread (0,0,0): integer overflow: a sum" $cmd -q "$D"
done
kd '{ for = "i = 0; i < 16; i++"; do = ( "load A[i * 768614336404564650 - i * 768614336404564650 + i]" ); }'
for cmd in run count; do
	refused "$cmd: an index whose product overflows from i = 13: refused" \
		"$AT thread (0,0,0): integer overflow: a product" $cmd -q "$D"
done
kd '{ for = "i = 9223372036854775800; i < 9223372036854775807; i++"; do = ( "load A[i - 9223372036854775800]" ); }'
for cmd in run count; do
	taken "$cmd: i < INT64_MAX; i++: seven iterations, no false overflow" 7 $cmd
done
# a trip count of 2^63 / 2^20 (UBSan saw its arithmetic overflow in count)
kd '{ for = "i = -4611686018427387904; i <= 4611686018427387903; i += 1048576"; do = ( "load C[i / 4]" ); }'
refused "count: a loop from -2^62 to 2^62 - 1: the first iteration's index, no overflow" \
	"$AT thread (0,0,0): C\[-1152921504606846976\] is below address 0" count -q "$D"
kd '{ for = "i = -2305843009213693952; i <= 2305843009213693951; i += 1048576"; do = ( "load A[0]" ); }'
refused "count: a loop of 2^42 iterations: the iteration limit at once" \
	"$AT thread (0,0,0): loop runs more than 268435456 iterations" count -q "$D"
RDSCOPE_MAX_LOADS=1000 refused "run: the same loop: the load limit" \
	"$AT thread (0,0,0): more than 1000 loads" run -q "$D"

# A loop that does not advance is an error at once (it ran until a limit:
# 8-13 s and 2.3 GB).
for step in 'i += 0' 'i = i * 1' 'i <<= 0' 'i -= N - N'; do
	kd "{ for = \"i = 0; i < 10; $step\"; do = ( \"load A[i]\" ); }"
	for cmd in run count; do
		refused "$cmd: for (i = 0; i < 10; $step): does not advance, said at once" \
			"$AT thread (0,0,0): the loop does not advance: its step leaves i at 0" $cmd -q "$D"
	done
done
kd '"j = 0", { for = "i = 0; j < 3; i += 0"; do = ( "j = j + 1", "load A[j]" ); }'
taken "a step that stays, with a body that moves the condition: runs (3 iterations)" 3 count

# The loop analyses that give up (here: a step that doubles) leave the loop
# variable as they found it: a start that reads it (i = i + 1 from 5) runs
# 6 and 12, in count as in run (count ran 7 only).
kd '"i = 5", { for = "i = i + 1; i < 13; i = 2 * i"; do = ( "load A[i]" ); }'
for cmd in run count; do
	taken "$cmd: a loop's start that reads its variable: two iterations" 2 $cmd
done
