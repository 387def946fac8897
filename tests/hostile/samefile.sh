#!/bin/sh
# Outputs that are one file, or an input (issue 24, class 8): refused with
# exit 2 before any work, comparing files (device and inode; a new file by
# its resolved path), not names. Devices may be named twice.
. "$(dirname "$0")/common.inc"
cp samples/paper/table2.trc "$T/t.trc"
P="-p toy-table2"
# refused NAME MESSAGE-PART ARGS...: exit 2, the message, and the input intact.
refused() {
	name=$1 msg=$2
	shift 2
	"$R" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "$msg" "$T/err" && cmp -s "$T/t.trc" samples/paper/table2.trc
	check "$name" $?
}
refused "run -o F --log F: refused, nothing lost" "name the same file" \
	run -q $P -o "$T/same.csv" --log "$T/same.csv" "$T/t.trc"
[ ! -e "$T/same.csv" ]
check "run -o F --log F: no file written" $?
refused "run -o F --histogram ./d/../F: the same new file by another name" "name the same file" \
	run -q $P -o "$T/x.csv" --histogram "$T/./x.csv" "$T/t.trc"
refused "convert T T: the input trace is kept" "is the input" convert "$T/t.trc" "$T/t.trc"
ln -s t.trc "$T/link.trc"
refused "run -o LINK-TO-INPUT: refused (compared by inode)" "is the input" \
	run -q $P -o "$T/link.trc" "$T/t.trc"
ln "$T/t.trc" "$T/hard.trc"
refused "sweep -o HARD-LINK-TO-INPUT: refused (compared by inode)" "is the input" \
	sweep -q $P --vary l1.ways=1,2 -o "$T/hard.trc" "$T/t.trc"
"$R" run -q $P -f csv -o "$T/r.csv" "$T/t.trc" 2>/dev/null
refused "merge -o SHARD SHARD: the shard kept" "is the input" merge -o "$T/r.csv" "$T/r.csv"
"$R" run -q $P -o /dev/null --log /dev/null --histogram /dev/null "$T/t.trc" >/dev/null 2>&1
check "run -o /dev/null --log /dev/null: a device may be named twice" $?
"$R" run -q $P -o "$T/a.csv" --log "$T/b.csv" "$T/t.trc" >/dev/null 2>&1 && [ -s "$T/a.csv" ] && [ -s "$T/b.csv" ]
check "run -o A --log B: distinct files still work" $?
