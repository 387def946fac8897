#!/bin/sh
# Terminal escape injection (issue 24, class 7): names from inputs reach
# people without their control characters (each becomes '?'), in the text
# output, in error messages and in the progress line's label; JSON escapes
# them instead (\u001b), keeping the name exact.
. "$(dirname "$0")/common.inc"
ESC=$(printf '\033')
BEL=$(printf '\007')
# A kernel description whose kernel name clears the screen and sets the
# window title (libconfig's \x escapes).
printf '%s\n' 'format = "rdscope-kernel";' 'version = 1;' \
	'arrays = { A = { elem = 4; dims = [1000]; }; };' \
	'kernels = ( { name = "k\x1b[2J\x1b]0;PWN\x07\xc2\x9b";' '  grid = [1];' '  block = [32];' \
	'  body = ( "load A[threadIdx.x]" ); } );' >"$T/esc.kdesc"
# An NVBit trace (the shipped sample) whose kernel name does the same.
sed "s/Kernel name copy2d/Kernel name k$ESC[2J$ESC]0;PWN$BEL/" samples/traces/tiny-nvbit.nvbit >"$T/esc.nvbit"

"$R" run -q "$T/esc.kdesc" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && ! grep -q "[$ESC$BEL]" "$T/out" && grep -q '^kernel:  k?\[2J?\]0;PWN??, 32 threads' "$T/out"
check "text output: a description's kernel name without its escapes" $?

"$R" run -q --kernel nosuch "$T/esc.kdesc" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && ! grep -q "[$ESC$BEL]" "$T/err" && grep -q "k?\[2J?\]0;PWN" "$T/err"
check "error message quoting the kernel name: escapes replaced" $?

"$R" run -q -f json --no-timing "$T/esc.kdesc" >"$T/out" 2>/dev/null
[ $? -eq 0 ] && ! grep -q "[$ESC$BEL]" "$T/out" &&
	grep -q '"kernel":"k\\u001b\[2J\\u001b\]0;PWN\\u0007' "$T/out"
check "JSON: the kernel name escaped exactly (\\u001b), no raw escape" $?

"$R" run -q "$T/esc.nvbit" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && ! grep -q "[$ESC$BEL]" "$T/out" "$T/err" && grep -q '^kernel:  k?\[2J?\]0;PWN?(float' "$T/out"
check "NVBit kernel name: no escape in the text output" $?

# A file name is input too: an error naming it shows no escape.
"$R" run -q "$T/no$ESC[2Jsuch.trc" >"$T/out" 2>"$T/err"
[ $? -ne 0 ] && ! grep -q "$ESC" "$T/err" && grep -q 'no?\[2Jsuch.trc' "$T/err"
check "a missing input's file name: escapes replaced in the message" $?
