#!/bin/sh
# Endless, huge and read-twice inputs (issue 24, class 4): every input is
# read once, as a stream, with a size or count limit and a clear error at
# it; headers are checked before bulk reading. Each run has a time limit:
# a hang is a failure, not a stalled test suite.
. "$(dirname "$0")/common.inc"
IN=samples/paper/table2.trc
# refused NAME MESSAGE-PART CMD...: exit 2 within 20 s, with the message.
refused() {
	name=$1 msg=$2
	shift 2
	timeout 20 "$R" "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	[ $rc -eq 2 ] && grep -q -- "$msg" "$T/err"
	check "$name" $?
}

# Presets from a pipe are read once (a second read found nothing).
cat presets/toy-table2.cfg | timeout 20 "$R" run -q -p /dev/stdin -f csv --no-timing "$IN" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q ',32,16,2,1,mod,' "$T/out"
check "run -p /dev/stdin from a pipe: the preset applies" $?
refused "run -p /dev/zero: refused at the preset size limit" "larger than 1048576 bytes: not a preset" \
	run -q -p /dev/zero "$IN"
refused "check /dev/urandom: refused at the preset size limit" "not a preset" check /dev/urandom
printf 'format = "rdscope-preset";\nversion = 1;\ninherits = "/dev/zero";\n' >"$T/inh.cfg"
refused "inherits = \"/dev/zero\": refused at its line" "inh.cfg:3: inherits: /dev/zero: larger than" \
	check "$T/inh.cfg"

# Binary traces from a stream: the header is checked first.
refused "run --input-format rdt /dev/zero: refused at its header" "/dev/zero: not an rdscope .rdt file" \
	run -q --input-format rdt /dev/zero
"$R" convert "$IN" "$T/t.rdt" >/dev/null 2>&1
(cat "$T/t.rdt"; head -c 4000000 /dev/zero) | timeout 20 "$R" run -q - >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "file size differs from the header's" "$T/err"
check "an .rdt with 4 MB appended, from a pipe: read to its size, refused" $?
refused "run /dev/zero: refused" "/dev/zero" run -q /dev/zero

# merge: endless, binary and directory inputs, at their first bytes.
refused "merge /dev/zero: refused at the first bytes" "NUL byte: not an rdscope sweep output" merge /dev/zero
yes | timeout 20 "$R" merge /dev/stdin >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "not a CSV or JSON output of 'rdscope sweep'" "$T/err"
check "merge of an endless text stream: refused at its first bytes" $?
refused "merge DIR: says it is a directory" "$T: Is a directory" merge "$T"

# The per-kernel load limit holds for every reader, Ocelot included; it
# is lowered here (RDSCOPE_MAX_LOADS) so that a small trace reaches it.
{ echo 'blocksize: 100 1 1'; awk 'BEGIN { for (i = 0; i < 100; i++) print i, 0, i * 4, 4 }'; } >"$T/o100.trc"
RDSCOPE_MAX_LOADS=99 timeout 20 "$R" run -q "$T/o100.trc" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "o100.trc:101: more than 99 loads in one kernel" "$T/err"
check "Ocelot: more loads than the limit refused at the line that passes it" $?
RDSCOPE_MAX_LOADS=100 timeout 20 "$R" run -q "$T/o100.trc" >/dev/null 2>&1
check "Ocelot: exactly the limit is accepted" $?
RDSCOPE_MAX_LOADS=10 timeout 20 "$R" run -q samples/traces/tiny-nvbit.nvbit >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "more than 10 loads" "$T/err"
check "NVBit: the same limit" $?
RDSCOPE_MAX_LOADS=10 timeout 20 "$R" run -q samples/traces/tiny.kdesc >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "more than 10 loads" "$T/err"
check "kernel descriptions: the same limit" $?
# Each reader's limit is exact: a kernel with exactly N loads passes at
# RDSCOPE_MAX_LOADS=N and fails at N - 1.
for f in samples/traces/tiny-nvbit.nvbit samples/traces/tiny-accelsim/kernel-1.traceg samples/traces/tiny.kdesc; do
	n=$("$R" run -q -f json --no-timing --kernel 0 "$f" | sed -n 's/.*"accesses":\([0-9]*\).*/\1/p' | head -n 1)
	RDSCOPE_MAX_LOADS=$n timeout 20 "$R" run -q --kernel 0 "$f" >/dev/null 2>&1
	at=$?
	RDSCOPE_MAX_LOADS=$((n - 1)) timeout 20 "$R" run -q --kernel 0 "$f" >/dev/null 2>&1
	below=$?
	[ -n "$n" ] && [ "$at" -eq 0 ] && [ "$below" -eq 2 ]
	check "$(basename "$f"): exactly $n loads pass at the limit $n, fail at $((n - 1))" $?
done
