#!/bin/sh
# Errors found late or unclear (issue 24, class 12): each names what is
# wrong, at its line, with exit 2.
. "$(dirname "$0")/common.inc"
# said NAME MESSAGE CMD...: exit 2 and exactly that message.
said() {
	name=$1 msg=$2
	shift 2
	timeout 20 "$R" "$@" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(cat "$T/err")" = "$msg" ]
	check "$name" $?
}
IN=samples/paper/table2.trc
gzip -c "$IN" | head -c 20 >"$T/trunc.trc.gz"
"$R" run -q "$T/trunc.trc.gz" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "trunc.trc.gz.*unexpected end of file" "$T/err"
check "a truncated gzip: says the compressed data ends early" $?
said "--kernel 99999999999999999999: the index as given" \
	"rdscope: $IN: no kernel 99999999999999999999: it has 1 (0..0: table2)" \
	run -q --kernel 99999999999999999999 "$IN"
sed 's/warp 4 - LDG/warp 4294967295 - LDG/' samples/traces/tiny-nvbit.nvbit >"$T/w.nvbit"
said "NVBit warp 4294967295: the number is too large, at its line" \
	"rdscope: $T/w.nvbit:4: warp number too large (at most 4294967294)" run -q "$T/w.nvbit"
sed '0,/R4 4 1 0x10000000/s//R4 0 1 0x10000000/' samples/traces/tiny-accelsim/kernel-1.traceg >"$T/w0.traceg"
said "Accel-Sim mem_width 0 with addresses: refused, not dropped" \
	"rdscope: $T/w0.traceg:25: memory width 0 on a load with addresses (0-byte accesses touch nothing)" \
	run -q "$T/w0.traceg"
