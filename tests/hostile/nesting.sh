#!/bin/sh
# Deep nesting (issue 24, class 2): every recursive construct of the
# kernel-description parser has a limit and a file:line error with exit 2,
# instead of a stack overflow. Bodies that are the limit's depth exactly
# still work.
. "$(dirname "$0")/common.inc"
rep() { awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }
# desc FILE BODY-STATEMENT: a one-kernel description whose body (line 8) is
# the statement given (a libconfig string or group).
desc() {
	printf '%s\n' 'format = "rdscope-kernel";' 'version = 1;' \
		'arrays = { A = { elem = 4; dims = [1000]; }; };' \
		'kernels = ( { name = "k";' '  grid = [1];' '  block = [32];' '  body = (' >"$1"
	printf '%s\n' "$2" '  ); } );' >>"$1"
}
# expect NAME FILE MESSAGE-PART: exit 2, the error at file:8, and no crash.
expect() {
	"$R" run -q "$2" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "^rdscope: $2:8: .*$3" "$T/err"
	check "$1" $?
}
N=10000
desc "$T/paren.kdesc" "\"load A[$(rep '(' $N)0$(rep ')' $N)]\""
expect "10000 parentheses: refused at file:line, exit 2" "$T/paren.kdesc" "nested too deeply"
desc "$T/not.kdesc" "\"load A[$(rep '!' 1000000)0]\""
expect "a million '!': refused at file:line, exit 2" "$T/not.kdesc" "nested too deeply"
desc "$T/bnot.kdesc" "\"load A[$(rep '~' 20000)0]\""
expect "20000 '~': refused at file:line, exit 2" "$T/bnot.kdesc" "nested too deeply"
desc "$T/min.kdesc" "\"load A[$(rep 'min(1,' $N)0$(rep ')' $N)]\""
expect "10000 nested min(): refused at file:line, exit 2" "$T/min.kdesc" "nested too deeply"
desc "$T/tern.kdesc" "\"load A[$(rep '1?0:' $N)0]\""
expect "10000 chained ?: refused at file:line, exit 2" "$T/tern.kdesc" "nested too deeply"
# A left chain is shallow as written but deep as a tree (the evaluator
# recurses over the tree): threadIdx.x + threadIdx.x + ... + 0.
desc "$T/chain.kdesc" "\"load A[$(rep 'threadIdx.x+' 100000)0]\""
expect "a 100000-term sum: refused at file:line, exit 2" "$T/chain.kdesc" "nested too deeply"
# Statement bodies (libconfig groups and lists): 10000 and 70 nested ifs,
# refused before libconfig (which recurses too) parses them.
for n in 10000 70; do
	desc "$T/ifs.kdesc" "$(rep '{ if = "1"; then = (' $n)\"load A[0]\"$(rep '); }' $n)"
	expect "$n nested ifs: refused at file:line, exit 2" "$T/ifs.kdesc" \
		"groups and lists nested too deeply (more than 128 levels)"
done
# Just within the limits: 200 parentheses and 60 nested ifs still run.
desc "$T/ok.kdesc" "$(rep '{ if = "1"; then = (' 60)\"load A[$(rep '(' 200)threadIdx.x$(rep ')' 200)]\"$(rep '); }' 60)"
"$R" run -q -f csv --no-timing "$T/ok.kdesc" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q ',32,' "$T/out"
check "200 parentheses inside 60 nested ifs: within the limits, runs" $?
