#!/bin/sh
# The C importer's file name (issue 39, class 5): the name went unescaped
# into the description it writes, in a comment and in description = "...",
# so a name with '"' or a newline gave a description that does not read
# back ('count q.kdesc' failed at line 6 or 2), and a name with ESC put
# raw escape bytes on standard output. Now control characters become '?'
# and '"' and '\' are escaped: each description reads back.
. "$(dirname "$0")/common.inc"
ESC=$(printf '\033')
NL='
'
# name NAME C-FILE-NAME: the import, and the description read back.
name() {
	cp tests/fuzz/corpus/cscop/gemm.c "$T/$2"
	"$R" kdesc --from-c "$T/$2" >"$T/q.kdesc" 2>"$T/err" &&
		! grep -q "$ESC" "$T/q.kdesc" &&
		"$R" count -D D=8 "$T/q.kdesc" >"$T/out" 2>>"$T/err"
	r=$?
	[ $r -eq 0 ] || sed 's/^/# /' "$T/err" | head -n 3
	check "$1" $r
}
name "a C file named with '\"': the description reads back" 'q"uote.c'
name "a C file named with two '\"' and a ';': the description reads back" 'a"; x = "b.c'
name "a C file named with a newline: the description reads back" "new${NL}line.c"
name "a C file named with ESC[2J: no raw escape on stdout, reads back" "e${ESC}[2Jx.c"
name "a C file named with a backslash: the description reads back" 'back\slash\.c'
"$R" kdesc --from-c "$T/q\"uote.c" >"$T/q.kdesc" 2>/dev/null &&
	grep -q '^description = "the scop of .*q\\"uote.c, serial";$' "$T/q.kdesc"
check "the description names the file, its quote escaped" $?
