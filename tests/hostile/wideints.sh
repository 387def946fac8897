#!/bin/sh
# Integers beyond 32 bits (issue 39, class 3): libconfig 1.5 reads an
# integer without an L suffix as 32 bits, and descriptions and presets
# took the truncated value silently (N = 4294967396 became 100, two arrays
# at 0x7f0000001000 and 0x7f1000001000 one at 0x1000, seed = 4294967296
# became 0 and `check` said ok). They now read as written (the text gets
# its L before libconfig parses it), an integer beyond 64 bits is refused
# at file:line with exit 2, and `kdesc --from-c` writes what reads back.
. "$(dirname "$0")/common.inc"
# kd FILE PARAMS ARRAYS GRID: a one-kernel description.
kd() {
	printf '%s\n' 'format = "rdscope-kernel";' 'version = 1;' "params = { $2 };" \
		"arrays = { $3 };" \
		"kernels = ( { name = \"k\"; grid = [$4]; block = [1]; body = ( \"load A[N % 16]\" ); } );" >"$1"
}
A16='A = { elem = 4; dims = ["16"]; };'
kd "$T/n.kdesc" 'N = 4294967396; M = 3000000000; Z = -3000000000;' "$A16" 1
"$R" count "$T/n.kdesc" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q '(N = 4294967396, M = 3000000000, Z = -3000000000)' "$T/out"
check "params N = 4294967396, 3000000000, -3000000000: read as written" $?

kd "$T/b.kdesc" 'N = 0;' 'A = { elem = 4; dims = ["16"]; base = 0x7f0000001000; }; B = { elem = 4; dims = ["16"]; base = 0x7f1000001000; };' 1
"$R" arrays -f csv "$T/b.kdesc" >"$T/out" 2>"$T/err"
grep -q ',A,139637976731648,' "$T/out" && grep -q ',B,139706696208384,' "$T/out"
check "arrays at 0x7f0000001000 and 0x7f1000001000: two arrays, bases as written" $?

kd "$T/g.kdesc" 'N = 0;' "$A16" '4294967297, 1'
"$R" count "$T/g.kdesc" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "g.kdesc:5: .*4294967297" "$T/err"
check "grid = [4294967297, 1]: refused with the value written, not run as 1 block" $?

kd "$T/h.kdesc" 'N = 99999999999999999999;' "$A16" 1
"$R" count "$T/h.kdesc" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "^rdscope: $T/h.kdesc:3: an integer beyond 64 bits" "$T/err"
check "N = 99999999999999999999: refused at file:line (libconfig would saturate)" $?
kd "$T/x.kdesc" 'N = 0x10000000000000000L;' "$A16" 1
"$R" count "$T/x.kdesc" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "x.kdesc:3: an integer beyond 64 bits" "$T/err"
check "N = 0x10000000000000000L (17 hex digits): refused at file:line" $?
printf '%s\n' 'format = "rdscope-kernel"; # 99999999999999999999' 'version = 1;' \
	'description = "99999999999999999999 4294967396 0x7f0000001000"; /* 99999999999999999999 */' \
	'params = { N = 1; }; // 99999999999999999999' "arrays = { $A16 };" \
	'kernels = ( { name = "k"; grid = [1]; block = [1]; body = ( "load A[N % 16]" ); } );' >"$T/s.kdesc"
"$R" count "$T/s.kdesc" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q '(N = 1)' "$T/out"
check "digits in strings and comments are left alone (99999999999999999999 there is no error)" $?

# presets
pre() { printf 'format = "rdscope-preset";\nversion = 1;\n%s\n' "$2" >"$1"; }
pre "$T/seed.cfg" 'seed = 4294967296;'
"$R" preset -p "$T/seed.cfg" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q '^seed = 4294967296L;' "$T/out"
check "preset seed = 4294967296: read as written (was 0)" $?
pre "$T/row.cfg" 'dram = { row_mask = 0x1000000000000; };'
"$R" preset -p "$T/row.cfg" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q 'row_mask = 281474976710656L;' "$T/out"
check "preset dram.row_mask = 0x1000000000000: read as written (was 0)" $?
pre "$T/l1.cfg" 'l1 = { size = 4294967296; };'
"$R" check "$T/l1.cfg" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "l1.cfg:3: l1.size: .*4294967296" "$T/err"
check "preset l1.size = 4294967296: refused with the value written (was 'got 0')" $?
pre "$T/big.cfg" 'seed = 18446744073709551616;'
"$R" check "$T/big.cfg" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "big.cfg:3: an integer beyond 64 bits" "$T/err"
check "preset seed = 2^64: refused at file:line" $?

# the importer writes what reads back
printf '#define N 4294967396\n#define M 3000000000\nfloat A[16];\nint i;\n#pragma scop\nfor (i = 0; i < 2; i++) A[(N + M + i) %% 16] = 1;\n#pragma endscop\n' >"$T/big.c"
"$R" kdesc --from-c "$T/big.c" -o "$T/big.kdesc" 2>"$T/err" &&
	"$R" count "$T/big.kdesc" >"$T/out" 2>>"$T/err" &&
	grep -q '(N = 4294967396, M = 3000000000)' "$T/out" && grep -q 'N = 4294967396L;' "$T/big.kdesc"
check "kdesc --from-c: #define N 4294967396 written with L, counted back as 4294967396" $?
