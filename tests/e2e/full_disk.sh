#!/bin/sh
# Nothing lost on a full disk: every file rdscope writes goes to a
# temporary file renamed into place on success, so on a full filesystem
# the old file stays as it was, no temporary file is left, and rdscope says
# what happened (exit 1). Uses a tiny tmpfs (needs root, as CI has); says
# so and checks nothing where it cannot mount one.
set -u
R=${RDSCOPE:?}
T=$(mktemp -d)
M="$T/full"
mkdir -p "$M"
cleanup() { umount "$M" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
check() { if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fi; }
if ! mount -t tmpfs -o size=32k tmpfs "$M" 2>/dev/null; then
	echo "# full-disk checks skipped: cannot mount a tmpfs here"
	exit 0
fi
printf 'precious\n' >"$M/out.json"
printf 'precious\n' >"$M/log.csv"
printf 'precious\n' >"$M/k.rdt"
printf 'precious\n' >"$M/p.svg"
printf 'precious\n' >"$M/h.csv"
# fill what is left (tmpfs counts whole pages)
dd if=/dev/zero of="$M/fill" bs=4096 count=16 2>/dev/null

intact() { # WHAT FILE: the old content, and no temporary file beside it
	[ "$(cat "$2")" = precious ] && [ -z "$(ls "$M" | grep '\.tmp\.')" ]
}

"$R" run -q -f json -o "$M/out.json" samples/paper/table2.trc 2>"$T/err"
[ $? -eq 1 ] && grep -q "No space left on device" "$T/err" && intact results "$M/out.json"
check "full disk: -o fails with exit 1 and a message, old file intact" $?

"$R" run -q --log "$M/log.csv" samples/paper/table2.trc >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "No space left on device" "$T/err" && intact log "$M/log.csv"
check "full disk: --log fails with exit 1 and a message, old file intact" $?

"$R" convert samples/paper/table2.trc "$M/k.rdt" 2>"$T/err"
[ $? -eq 1 ] && grep -q "No space left on device" "$T/err" && intact rdt "$M/k.rdt"
check "full disk: convert fails with exit 1 and a message, old file intact" $?

"$R" run -q --plot "$M/p.svg" samples/paper/table2.trc >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "No space left on device" "$T/err" && intact svg "$M/p.svg"
check "full disk: --plot fails with exit 1 and a message, old file intact" $?

"$R" run -q --histogram "$M/h.csv" samples/paper/table2.trc >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "No space left on device" "$T/err" && intact histogram "$M/h.csv"
check "full disk: --histogram fails with exit 1 and a message, old file intact" $?
exit 0
