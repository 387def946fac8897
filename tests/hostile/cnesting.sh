#!/bin/sh
# The C importer's nesting (issue 39, class 2): bare { } blocks recursed
# without a limit (a million braces, 2 MB, overflowed the stack: SIGSEGV).
# They now count with for and if towards the same limit, 64 levels, and
# deeper is refused at the C file's line with exit 2. Blocks within the
# limit still import, and read back.
. "$(dirname "$0")/common.inc"
rep() { awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }
# cfile FILE BODY: a C file, the scop's body on line 3.
cfile() { printf 'float A[16];\n#pragma scop\n%s\n#pragma endscop\n' "$2" >"$1"; }
# refused NAME FILE MESSAGE-PART: exit 2 with FILE:3: and the message.
refused() {
	"$R" kdesc --from-c "$2" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "^rdscope: $2:3: .*$3" "$T/err"
	r=$?
	[ $r -eq 0 ] || { echo "# exit $rc"; head -c 300 "$T/err" | sed 's/^/# /'; }
	check "$1" $r
}
cfile "$T/m.c" "$(rep '{' 1000000)$(rep '}' 1000000)"
refused "a million nested bare blocks: refused at file:line, no stack overflow" "$T/m.c" \
	"blocks nested more than 64 deep"
cfile "$T/b.c" "$(rep '{' 100000)A[0] = 1;$(rep '}' 100000)"
refused "100000 nested blocks around a store: refused" "$T/b.c" "nested more than 64 deep"
cfile "$T/x.c" "$(rep '{' 70)A[0] = 1;$(rep '}' 70)"
refused "70 nested blocks: over the limit, refused" "$T/x.c" "blocks nested more than 64 deep"
cfile "$T/f.c" "$(rep '{ if (1) ' 70)A[0] = 1;$(rep '}' 70)"
refused "blocks and ifs alternating, 140 levels: refused" "$T/f.c" "nested more than 64 deep"
cfile "$T/ok.c" "$(rep '{' 60)A[1] = A[0];$(rep '}' 60)"
"$R" kdesc --from-c "$T/ok.c" -o "$T/ok.kdesc" 2>"$T/err" &&
	"$R" count -f csv "$T/ok.kdesc" >"$T/out" 2>>"$T/err" && [ "$(sed 1d "$T/out" | wc -l)" -ge 1 ]
check "60 nested blocks: within the limit, imported and counted" $?
